package dev.tickler.reminder;

import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

import jakarta.enterprise.context.ApplicationScoped;

import org.jboss.logging.Logger;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;

import dev.tickler.publish.Publication;
import dev.tickler.publish.ReminderPublisher;
import dev.tickler.publish.Via;
import dev.tickler.quiethours.QuietDecision;
import dev.tickler.quiethours.QuietHandOffWrites;
import dev.tickler.quiethours.QuietHours;
import dev.tickler.quiethours.QuietHoursService;
import dev.tickler.quiethours.StoredQuietHours;
import dev.tickler.handoff.OccurrenceFollowUp;
import dev.tickler.ledger.ReminderRow;
import dev.tickler.ledger.ReminderState;

/**
 * The creation rule (docs/contract.md#two-horizons): a committed pending reminder due within the queue's 7-day ceiling is published with
 * its exact delay and marked handed off; a later one stays parked for the sweep. One that falls inside its user's
 * quiet hours is published for the window's end, or skipped (docs/quiet-hours.md). Never fails: when the publish does,
 * the reminder stays pending, the failure is logged and counted, and the sweep takes it later under the same key.
 */
@ApplicationScoped
public class ReminderHandOff {

    private static final Logger LOG = Logger.getLogger(ReminderHandOff.class);

    /** Hand-offs under quiet hours of one batch registration in flight at once (each a publish and a write). */
    private static final int QUIET_HAND_OFFS_IN_FLIGHT = 16;

    private final ReminderPublisher publisher;
    private final RegistrationStore store;
    private final QuietHoursService quietHours;
    private final QuietHandOffWrites writes;
    private final OccurrenceFollowUp followUp;
    private final Pool pool;
    private final Clock clock;
    private final Counter published;
    private final Counter publishFailures;

    public ReminderHandOff(ReminderPublisher publisher, RegistrationStore store, QuietHoursService quietHours,
            QuietHandOffWrites writes, OccurrenceFollowUp followUp, Pool pool, Clock clock, MeterRegistry registry) {
        this.followUp = followUp;
        this.publisher = publisher;
        this.store = store;
        this.quietHours = quietHours;
        this.writes = writes;
        this.pool = pool;
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
        if (reminder.urgent()) {
            return publishAsDue(reminder, via);
        }
        return quietHours.find(reminder.userId())
                .onFailure().recoverWithItem(failure -> {
                    LOG.warnf("quiet hours of reminder %d's user could not be read (%s); handed off as due, its send"
                            + " checks them again", reminder.id(), failure.getMessage());
                    return Optional.empty();
                })
                .chain(found -> handOff(reminder, QuietHours.check(found.map(StoredQuietHours::quietHours).orElse(null),
                        sendsAt(reminder, now()), reminder.channel().wireName(), reminder.expiresAt()), via));
    }

    /**
     * The creation rule for many at once (a batch registration): the publishes in flight together are bounded, the
     * marks go in one round trip, and the quiet hours of all their users are read in one. Answers each reminder as it
     * now is, in the order given.
     */
    public Uni<List<ReminderRow>> handOffAllDue(List<ReminderRow> reminders, Via via) {
        List<ReminderRow> due = reminders.stream()
                .filter(reminder -> reminder.state() == ReminderState.PENDING && publisher.withinCeiling(reminder.fireAt()))
                .toList();
        if (due.isEmpty()) {
            return Uni.createFrom().item(reminders);
        }
        Set<String> users = due.stream().filter(reminder -> !reminder.urgent()).map(ReminderRow::userId)
                .collect(Collectors.toSet());
        return quietHours.forUsers(users)
                .onFailure().recoverWithItem(failure -> {
                    LOG.warnf("quiet hours of %d users could not be read (%s); handed off as due, their sends check"
                            + " them again", users.size(), failure.getMessage());
                    return Map.of();
                })
                .chain(byUser -> {
                    Instant now = now();
                    List<ReminderRow> asDue = new ArrayList<>();
                    Map<ReminderRow, QuietDecision> quiet = new LinkedHashMap<>();
                    for (ReminderRow reminder : due) {
                        QuietDecision decision = reminder.urgent() ? QuietDecision.ALLOWED
                                : QuietHours.check(byUser.get(reminder.userId()), sendsAt(reminder, now),
                                        reminder.channel().wireName(), reminder.expiresAt());
                        if (decision instanceof QuietDecision.Allowed) {
                            asDue.add(reminder);
                        } else {
                            quiet.put(reminder, decision);
                        }
                    }
                    Uni<List<ReminderRow>> underQuietHours = quiet.isEmpty() ? Uni.createFrom().item(List.of())
                            : Multi.createFrom().iterable(quiet.entrySet())
                                    .onItem().transformToUni(entry -> handOff(entry.getKey(), entry.getValue(), via))
                                    .merge(QUIET_HAND_OFFS_IN_FLIGHT)
                                    .collect().asList();
                    return Uni.combine().all().unis(publishAllAsDue(asDue, via), underQuietHours).asTuple();
                })
                .map(handedOff -> {
                    Map<Long, ReminderRow> byId = new HashMap<>();
                    handedOff.getItem1().forEach(row -> byId.put(row.id(), row));
                    handedOff.getItem2().forEach(row -> byId.put(row.id(), row));
                    return reminders.stream().map(reminder -> byId.getOrDefault(reminder.id(), reminder)).toList();
                });
    }

    /** When the reminder would be sent: at fire_at, or now when that has passed. */
    private static Instant sendsAt(ReminderRow reminder, Instant now) {
        return reminder.fireAt().isAfter(now) ? reminder.fireAt() : now;
    }

    /**
     * Hands off under a quiet-hours decision (docs/quiet-hours.md): as due; published for the window's end and
     * marked deferred; skipped; or expired when the window outlasts the reminder's expiry. Never fails: a publish or
     * write that fails leaves the row pending for the sweep, which decides again.
     */
    private Uni<ReminderRow> handOff(ReminderRow reminder, QuietDecision decision, Via via) {
        Instant now = now();
        Uni<Boolean> written;
        if (decision instanceof QuietDecision.Allowed) {
            return publishAsDue(reminder, via);
        } else if (decision instanceof QuietDecision.Deferred deferred) {
            written = publisher.publish(new Publication(reminder.id(), reminder.version(), reminder.handoff(),
                            reminder.channel().wireName(), deferred.dueAt(now), Via.QUIET_HOURS))
                    .invoke(() -> published.increment())
                    .chain(messageId -> writes.deferred(pool, reminder.id(), reminder.version(), reminder.handoff(),
                            messageId, deferred.dueAt(now), deferred.until(), now));
        } else {
            written = (decision instanceof QuietDecision.Expired expired
                    ? writes.expired(pool, reminder.id(), reminder.version(), reminder.handoff(), expired.error(), now)
                    : writes.skipped(pool, reminder.id(), reminder.version(), reminder.handoff(), now))
                    // an occurrence that ended here makes room for its schedule's next one, as every ending does
                    .call(ended -> ended && reminder.scheduleId() != null
                            ? followUp.occurrenceEnded(reminder.scheduleId()) : Uni.createFrom().voidItem());
        }
        return written.chain(() -> store.findById(reminder.id()).map(current -> current.orElse(reminder)))
                .onFailure().recoverWithItem(failure -> {
                    publishFailures.increment();
                    LOG.warnf("hand-off of reminder %d (version %d) under quiet hours failed, it stays pending for the"
                            + " sweep: %s", reminder.id(), reminder.version(), failure.getMessage());
                    return reminder;
                });
    }

    private Uni<ReminderRow> publishAsDue(ReminderRow reminder, Via via) {
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

    /** Publishes with bounded concurrency and marks in one round trip; answers the rows it marked. */
    private Uni<List<ReminderRow>> publishAllAsDue(List<ReminderRow> due, Via via) {
        if (due.isEmpty()) {
            return Uni.createFrom().item(List.of());
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
