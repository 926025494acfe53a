package dev.tickler.reminder;

import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import jakarta.enterprise.context.ApplicationScoped;

import org.jboss.logging.Logger;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.smallrye.mutiny.Uni;

import dev.tickler.publish.Publication;
import dev.tickler.publish.ReminderPublisher;
import dev.tickler.publish.Via;

/**
 * The creation rule (docs/contract.md#two-horizons): a committed pending reminder due within the queue's 7-day ceiling
 * is published with its exact delay and marked handed off; a later one stays parked for the sweep. Never fails: when
 * the publish does, the reminder stays pending, the failure is logged and counted, and the sweep takes it later under
 * the same key.
 */
@ApplicationScoped
public class ReminderHandOff {

    private static final Logger LOG = Logger.getLogger(ReminderHandOff.class);

    private final ReminderPublisher publisher;
    private final RegistrationStore store;
    private final Clock clock;
    private final Counter published;
    private final Counter publishFailures;

    public ReminderHandOff(ReminderPublisher publisher, RegistrationStore store, Clock clock, MeterRegistry registry) {
        this.publisher = publisher;
        this.store = store;
        this.clock = clock;
        this.published = Counter.builder("tickler.handoff.published")
                .description("Reminders published to the queue").register(registry);
        this.publishFailures = Counter.builder("tickler.handoff.publish.failures")
                .description("Publishes that failed; the reminder stays pending for the sweep").register(registry);
    }

    public Uni<ReminderRow> handOffIfDue(ReminderRow reminder, Via via) {
        if (reminder.state() != ReminderState.PENDING || !publisher.withinCeiling(reminder.fireAt())) {
            return Uni.createFrom().item(reminder);
        }
        return publisher.publish(publication(reminder, via))
                .onItemOrFailure().transformToUni((messageId, failure) -> {
                    if (failure != null) {
                        publishFailures.increment();
                        LOG.warnf("hand-off of reminder %d (version %d) failed, it stays pending for the sweep: %s",
                                reminder.id(), reminder.version(), failure.getMessage());
                        return Uni.createFrom().item(reminder);
                    }
                    published.increment();
                    return markHandedOff(reminder, messageId);
                });
    }

    /**
     * The creation rule for many at once (a batch registration): the publishes in flight together are bounded, the
     * marks go in one round trip. Answers each reminder as it now is, in the order given.
     */
    public Uni<List<ReminderRow>> handOffAllDue(List<ReminderRow> reminders, Via via) {
        List<ReminderRow> due = reminders.stream()
                .filter(reminder -> reminder.state() == ReminderState.PENDING && publisher.withinCeiling(reminder.fireAt()))
                .toList();
        if (due.isEmpty()) {
            return Uni.createFrom().item(reminders);
        }
        return publisher.publishAll(due.stream().map(reminder -> publication(reminder, via)).toList())
                .chain(outcomes -> {
                    List<ReminderRow> published = new ArrayList<>();
                    List<String> messageIds = new ArrayList<>();
                    for (int i = 0; i < due.size(); i++) {
                        ReminderPublisher.Published outcome = outcomes.get(i);
                        if (outcome.succeeded()) {
                            this.published.increment();
                            published.add(due.get(i));
                            messageIds.add(outcome.messageId());
                        } else {
                            publishFailures.increment();
                            LOG.warnf("hand-off of reminder %d (version %d) failed, it stays pending for the sweep: %s",
                                    due.get(i).id(), due.get(i).version(), outcome.failure().getMessage());
                        }
                    }
                    return store.markAllHandedOff(published, messageIds, now())
                            .onFailure().recoverWithItem(failure -> {
                                LOG.warnf("%d reminders were published but not marked handed off (%s); the sweep takes"
                                        + " them again", published.size(), failure.getMessage());
                                return published;
                            });
                })
                .map(marked -> {
                    Map<Long, ReminderRow> byId = new HashMap<>();
                    marked.forEach(row -> byId.put(row.id(), row));
                    return reminders.stream().map(reminder -> byId.getOrDefault(reminder.id(), reminder)).toList();
                });
    }

    private static Publication publication(ReminderRow reminder, Via via) {
        return new Publication(reminder.id(), reminder.version(), reminder.handoff(), reminder.channel().wireName(),
                reminder.fireAt(), via);
    }

    /** A mark that cannot be written leaves the row pending; the sweep publishes it again under the same key. */
    private Uni<ReminderRow> markHandedOff(ReminderRow reminder, String messageId) {
        return store.markHandedOff(reminder, messageId, now())
                .chain(marked -> marked.isPresent() ? Uni.createFrom().item(marked.get())
                        : store.findById(reminder.id()).map(current -> current.orElse(reminder)))
                .onFailure().recoverWithItem(failure -> {
                    LOG.warnf("reminder %d was published but not marked handed off (%s); the sweep takes it again",
                            reminder.id(), failure.getMessage());
                    return reminder;
                });
    }

    private Instant now() {
        return clock.instant().truncatedTo(ChronoUnit.MICROS);
    }
}
