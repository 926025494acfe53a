package dev.tickler.handoff;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;

import jakarta.enterprise.context.ApplicationScoped;

import org.jboss.logging.Logger;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;

import dev.tickler.infrai.InfraiClient;
import dev.tickler.reminder.Reminder;
import dev.tickler.reminder.ReminderRepository;
import dev.tickler.reminder.ReminderState;

/**
 * Puts reminders on Infrai's delayed queue (SPEC §1): due within the queue's 7-day ceiling, published with the
 * exact delay and the publish key; anything later stays parked for the sweep.
 */
@ApplicationScoped
public class HandOffService {

    private static final Logger LOG = Logger.getLogger(HandOffService.class);

    private final InfraiClient infrai;
    private final ReminderRepository repository;
    private final Clock clock;
    private final Counter published;
    private final Counter publishFailures;

    public HandOffService(InfraiClient infrai, ReminderRepository repository, Clock clock, MeterRegistry registry) {
        this.infrai = infrai;
        this.repository = repository;
        this.clock = clock;
        this.published = Counter.builder("tickler.handoff.published")
                .description("Reminders published to the queue").register(registry);
        this.publishFailures = Counter.builder("tickler.handoff.publish.failures")
                .description("Publishes that failed; the reminder stays pending for the sweep").register(registry);
    }

    /** Whole seconds until fireAt, rounded up so a reminder is never early; 0 when it is already due. */
    public static long delaySeconds(Instant fireAt, Instant now) {
        Duration until = Duration.between(now, fireAt);
        if (until.isNegative() || until.isZero()) {
            return 0;
        }
        return until.getSeconds() + (until.getNano() > 0 ? 1 : 0);
    }

    /**
     * Publishes a committed pending reminder when it is due within the queue's ceiling and marks it handed off.
     * Never fails: when the publish does, the reminder stays pending, the failure is logged and counted, and the
     * sweep takes it later under the same publish key.
     */
    public Uni<Reminder> handOffIfDue(Reminder reminder) {
        if (reminder.state != ReminderState.PENDING) {
            return Uni.createFrom().item(reminder);
        }
        long delay = delaySeconds(reminder.fireAt, clock.instant());
        if (delay > InfraiClient.MAX_DELAY_SECONDS) {
            return Uni.createFrom().item(reminder);
        }
        ReminderMessage message = new ReminderMessage(reminder.id, reminder.version);
        return infrai.publish(infrai.queueFor(reminder.channel.wireName()), message, delay, reminder.publishKey())
                .invoke(() -> published.increment())
                .chain(messageId -> markHandedOff(reminder, messageId))
                .onFailure().recoverWithItem(failure -> {
                    publishFailures.increment();
                    LOG.warnf("hand-off of reminder %d (version %d) failed, it stays pending for the sweep: %s",
                            reminder.id, reminder.version, failure.getMessage());
                    return reminder;
                });
    }

    private Uni<Reminder> markHandedOff(Reminder reminder, String messageId) {
        Instant now = clock.instant().truncatedTo(ChronoUnit.MICROS);
        return Panache.withTransaction(() -> repository
                .markHandedOff(reminder.id, reminder.version, reminder.handoff, messageId, now)
                .chain(() -> repository.findById(reminder.id)));
    }
}
