package dev.tickler.delivery;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.enterprise.context.ApplicationScoped;

import org.jboss.logging.Logger;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.smallrye.mutiny.Uni;

import dev.tickler.config.TicklerConfig;
import dev.tickler.handoff.HandOffService;
import dev.tickler.handoff.ReminderMessage;
import dev.tickler.infrai.InfraiClient;
import dev.tickler.reminder.ReminderKeys;
import dev.tickler.time.Pause;

/**
 * SPEC §4–§5 after the transport: claim a message's reminder in one atomic UPDATE, then deliver it to the notifier
 * within bounded concurrency and settle the row. Push and poll both come through {@link #accept}.
 */
@ApplicationScoped
public class DeliveryService {

    private static final Logger LOG = Logger.getLogger(DeliveryService.class);

    /** Why a message claimed nothing; its label names it in the push answer and in tickler_push_ignored_total. */
    public enum Ignored {
        UNKNOWN, STALE, DUPLICATE, FINISHED;

        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** What became of one queue message. */
    public sealed interface Acceptance {
        /** The reminder is ours; {@code settled} ends when its delivery attempt is settled in Postgres. */
        record Claimed(ClaimedReminder claim, Uni<Void> settled) implements Acceptance {
        }

        record NotClaimed(Ignored reason) implements Acceptance {
        }

        /** Not taken: this instance is stopping or its backlog is full; the queue should deliver it again later. */
        record Refused(String reason) implements Acceptance {
        }
    }

    private final ClaimRepository claims;
    private final NotifierClient notifier;
    private final InfraiClient infrai;
    private final Clock clock;
    private final Pause pause;
    private final MeterRegistry registry;
    private final TicklerConfig.Delivery config;
    private final int maxAttempts;
    private final RetryPolicy retryPolicy;
    private final AdaptiveConcurrency concurrency;
    private final Timer dispatchLag;
    private final Map<Ignored, Counter> ignoredPushes = new EnumMap<>(Ignored.class);
    private final Map<Long, ClaimedReminder> held = new ConcurrentHashMap<>();
    private volatile boolean accepting = true;

    public DeliveryService(ClaimRepository claims, NotifierClient notifier, InfraiClient infrai, Clock clock,
            Pause pause, MeterRegistry registry, TicklerConfig config) {
        this.claims = claims;
        this.notifier = notifier;
        this.infrai = infrai;
        this.clock = clock;
        this.pause = pause;
        this.registry = registry;
        this.config = config.delivery();
        this.maxAttempts = config.notifier().maxAttempts();
        this.retryPolicy = new RetryPolicy(config.notifier());
        this.concurrency = new AdaptiveConcurrency(config.notifier().concurrency());
        this.dispatchLag = Timer.builder("tickler.dispatch.lag")
                .description("From fire_at to the notifier's 2xx")
                .publishPercentileHistogram()
                .minimumExpectedValue(Duration.ofMillis(10))
                .maximumExpectedValue(Duration.ofHours(1))
                .register(registry);
        for (Ignored reason : Ignored.values()) {
            ignoredPushes.put(reason, Counter.builder("tickler.push.ignored").tag("reason", reason.label())
                    .description("Pushes that claimed nothing, by reason").register(registry));
        }
        Gauge.builder("tickler.notify.concurrency.limit", concurrency, AdaptiveConcurrency::limit)
                .description("Current ceiling of in-flight notifier calls; shrinks on 429").register(registry);
        Gauge.builder("tickler.delivery.held", held, Map::size)
                .description("Reminders claimed by this instance and not yet settled").register(registry);
    }

    /**
     * Claims the message's reminder and starts its delivery. Fails only when Postgres cannot be asked, so the
     * caller can make the queue deliver the message again.
     */
    public Uni<Acceptance> accept(ReminderMessage message) {
        if (!accepting) {
            return Uni.createFrom().item(new Acceptance.Refused("shutting down"));
        }
        if (held.size() >= config.maxBacklog()) {
            return Uni.createFrom().item(new Acceptance.Refused("backlog of " + held.size() + " deliveries is full"));
        }
        Instant now = now();
        return claims.claim(message.reminderId(), message.version(), now, now.plus(config.lease()))
                .chain(claimed -> claimed.isPresent()
                        ? Uni.createFrom().item(startDelivery(claimed.get()))
                        : whyNotClaimed(message).map(Acceptance.NotClaimed::new));
    }

    /** Stops claiming: from now on every message is refused so the queue keeps it. */
    void stopAccepting() {
        accepting = false;
    }

    /** The claims this instance still holds, for release at shutdown. */
    Map<Long, ClaimedReminder> held() {
        return held;
    }

    private Acceptance startDelivery(ClaimedReminder claim) {
        held.put(claim.id(), claim);
        Uni<Void> settled = attempt(claim)
                .onFailure().invoke(failure -> LOG.errorf(failure,
                        "delivery of reminder %d could not be settled; its lease will run out and it is delivered again",
                        claim.id()))
                .onFailure().recoverWithNull()
                .onTermination().invoke(() -> held.remove(claim.id(), claim))
                .memoize().indefinitely();
        settled.subscribe().with(ignored -> {
        });
        return new Acceptance.Claimed(claim, settled);
    }

    private Uni<Ignored> whyNotClaimed(ReminderMessage message) {
        return claims.stateOf(message.reminderId()).map(row -> {
            Ignored reason;
            if (row.isEmpty()) {
                reason = Ignored.UNKNOWN;
            } else if (row.get().getInteger("version") != message.version()) {
                reason = Ignored.STALE;
            } else {
                String state = row.get().getString("state");
                reason = state.equals("delivering") || state.equals("sent") ? Ignored.DUPLICATE : Ignored.FINISHED;
            }
            ignoredPushes.get(reason).increment();
            return reason;
        });
    }

    /** One notifier attempt for a held claim, then whatever SPEC §5 says comes next. */
    private Uni<Void> attempt(ClaimedReminder claim) {
        if (claim.expiresAt() != null && now().isAfter(claim.expiresAt())) {
            return claims.markExpired(claim, now()).invoke(settled -> logLostClaim(claim, settled)).replaceWithVoid();
        }
        return concurrency.run(() -> notifier.send(claim)).chain(outcome -> settle(claim, outcome));
    }

    private Uni<Void> settle(ClaimedReminder claim, NotifierOutcome outcome) {
        int attempts = claim.attempts() + 1;
        if (outcome instanceof NotifierOutcome.Delivered) {
            concurrency.succeeded();
            dispatchLag.record(Duration.between(claim.fireAt(), clock.instant()));
            return claims.markSent(claim, attempts, now()).invoke(settled -> logLostClaim(claim, settled))
                    .replaceWithVoid();
        }
        if (outcome instanceof NotifierOutcome.Permanent permanent) {
            return claims.markFailed(claim, attempts, permanent.error(), now())
                    .invoke(settled -> logLostClaim(claim, settled)).replaceWithVoid();
        }
        NotifierOutcome.Retryable retryable = (NotifierOutcome.Retryable) outcome;
        if (retryable.rateLimited()) {
            concurrency.rateLimited();
        }
        if (attempts >= maxAttempts) {
            return claims.markFailed(claim, attempts, retryable.error() + " (after " + attempts + " attempts)", now())
                    .invoke(settled -> logLostClaim(claim, settled)).replaceWithVoid();
        }
        Duration wait = retryable.retryAfter() != null ? retryable.retryAfter() : retryPolicy.backoffAfter(attempts);
        if (wait.compareTo(config.inlineRetryMax()) <= 0) {
            return claims.recordAttempt(claim, attempts, retryable.error(), now())
                    .chain(kept -> kept ? pause.of(wait).chain(() -> attempt(claim.withAttempts(attempts)))
                            : Uni.createFrom().voidItem().invoke(() -> logLostClaim(claim, false)));
        }
        return handBack(claim, attempts, retryable.error(), wait);
    }

    /**
     * A long wait is not held in memory: the retry goes back on the queue with that delay under the next hand-off
     * number, so an instance scaled to zero meanwhile loses nothing. If the queue cannot take it, the claim's lease
     * is cut to the retry time and the reconciler delivers it.
     */
    private Uni<Void> handBack(ClaimedReminder claim, int attempts, String error, Duration wait) {
        Instant from = now();
        long delaySeconds = Math.min(InfraiClient.MAX_DELAY_SECONDS, HandOffService.delaySeconds(from.plus(wait), from));
        return republish(claim, delaySeconds)
                .chain(messageId -> claims.handBack(claim, attempts, error, claim.handoff() + 1, messageId, now()))
                .onFailure().recoverWithUni(publishFailure -> {
                    LOG.warnf("retry of reminder %d could not be put on the queue (%s); it waits for its lease to end",
                            claim.id(), publishFailure.getMessage());
                    return claims.retryAfterLease(claim, attempts, error, now().plus(wait), now());
                })
                .invoke(settled -> logLostClaim(claim, settled))
                .replaceWithVoid();
    }

    /**
     * Gives a claim back at shutdown: the reminder goes on the queue again at once under the next hand-off number;
     * if the queue cannot take it, the lease ends now and the reconciler delivers it.
     */
    Uni<Void> release(ClaimedReminder claim) {
        return republish(claim, 0)
                .chain(messageId -> claims.release(claim, claim.handoff() + 1, messageId, now()))
                .onFailure().recoverWithUni(publishFailure -> claims.endLease(claim, now()))
                .replaceWithVoid();
    }

    private Uni<String> republish(ClaimedReminder claim, long delaySeconds) {
        return infrai.publish(infrai.queueFor(claim.channel()), new ReminderMessage(claim.id(), claim.version()),
                delaySeconds, ReminderKeys.publishKey(claim.id(), claim.version(), claim.handoff() + 1));
    }

    private static void logLostClaim(ClaimedReminder claim, boolean settled) {
        if (!settled) {
            LOG.warnf("claim on reminder %d (version %d) was no longer held when settling; another delivery owns it",
                    claim.id(), claim.version());
        }
    }

    private Instant now() {
        return clock.instant().truncatedTo(ChronoUnit.MICROS);
    }
}
