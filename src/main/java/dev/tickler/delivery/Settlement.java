package dev.tickler.delivery;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.function.Supplier;

import jakarta.enterprise.context.ApplicationScoped;

import org.jboss.logging.Logger;

import io.smallrye.mutiny.Uni;

import dev.tickler.config.TicklerConfig;
import dev.tickler.handoff.HandOff;
import dev.tickler.ledger.Attempt;
import dev.tickler.ledger.ReminderLedger;
import dev.tickler.publish.Via;
import dev.tickler.quiethours.QuietDecision;
import dev.tickler.quiethours.QuietHours;
import dev.tickler.time.Pause;

/**
 * What a held claim becomes (docs/contract.md#delivery-to-the-notifier): the user's quiet hours checked once more,
 * then one notifier call at a time, each in its tenant's turn and within the throttle, each outcome written to the ledger as the claim's settlement:
 * sent, failed, retried in memory, handed back to the queue, deferred, skipped, expired, or released at shutdown.
 */
@ApplicationScoped
class Settlement {

    private static final Logger LOG = Logger.getLogger(Settlement.class);
    private static final Duration SETTLE_RETRY_FIRST = Duration.ofMillis(250);
    private static final Duration SETTLE_RETRY_MAX = Duration.ofSeconds(10);

    private final ReminderLedger ledger;
    private final HeldDeliveries held;
    private final HandOff handOff;
    private final NotifierClient notifier;
    private final NotifierThrottle throttle;
    private final RetryPolicy retryPolicy;
    private final DeliveryMeters meters;
    private final Clock clock;
    private final Pause pause;
    private final int maxAttempts;
    private final Duration inlineRetryMax;
    private final Duration longestWait;

    Settlement(ReminderLedger ledger, HeldDeliveries held, HandOff handOff, NotifierClient notifier,
            DeliveryMeters meters, Clock clock, Pause pause, TicklerConfig config) {
        this.ledger = ledger;
        this.held = held;
        this.handOff = handOff;
        this.notifier = notifier;
        this.meters = meters;
        this.clock = clock;
        this.pause = pause;
        this.maxAttempts = config.notifier().maxAttempts();
        this.inlineRetryMax = config.delivery().inlineRetryMax();
        this.longestWait = config.sweep().window();
        this.retryPolicy = RetryPolicy.of(config.notifier());
        this.throttle = new NotifierThrottle(config.notifier().concurrency(), config.notifier().rateLimit(),
                System::nanoTime, pause::after);
        meters.watch(throttle);
    }

    /**
     * The user's quiet hours, as the claim read them, are checked before the first attempt (docs/quiet-hours.md):
     * inside a window the reminder is deferred to its end or skipped; expiry still wins.
     */
    Uni<Void> deliver(ClaimedReminder claim) {
        Instant now = now();
        if (claim.expiresAt() != null && now.isAfter(claim.expiresAt())) {
            return attempt(claim);
        }
        QuietDecision decision = QuietHours.check(claim.quietHours(), now, claim.channel(), claim.expiresAt());
        if (decision instanceof QuietDecision.Deferred deferred) {
            return defer(claim, deferred, now);
        }
        if (decision instanceof QuietDecision.Skipped) {
            return settleAs(claim, DeliveryMeters.Outcome.SKIPPED, () -> ledger.skipHeld(claim, now));
        }
        if (decision instanceof QuietDecision.Expired expired) {
            return settleAs(claim, DeliveryMeters.Outcome.EXPIRED, () -> ledger.expireHeld(claim, expired.error(), now));
        }
        return attempt(claim);
    }

    /**
     * Back on the queue for the window's end under the next hand-off number, same version and send key. If the queue
     * cannot take it, the row still waits as deferred and the reconciler delivers it once the window is over.
     */
    private Uni<Void> defer(ClaimedReminder claim, QuietDecision.Deferred deferred, Instant now) {
        Instant dueAt = deferred.dueAt(now);
        return handOff.handBack(claim, claim.handoff(), claim.channel(), dueAt, Via.QUIET_HOURS, claim.trace())
                .chain(messageId -> settleWith(claim,
                        () -> ledger.deferHeld(claim, claim.handoff() + 1, messageId, dueAt, deferred.until(), now)));
    }

    /** One notifier call for a held claim, then whatever its outcome calls for. */
    private Uni<Void> attempt(ClaimedReminder claim) {
        if (claim.expiresAt() != null && now().isAfter(claim.expiresAt())) {
            return settleAs(claim, DeliveryMeters.Outcome.EXPIRED, () -> ledger.expireHeld(claim, null, now()));
        }
        // the lease is checked when the call is about to go out, after whatever wait for a turn, a slot or the pace
        return throttle.send(claim.tenant(), () -> held.keepForSend(claim)
                        .chain(kept -> kept ? notifier.send(claim) : Uni.createFrom().item(NotifierOutcome.WITHHELD)))
                .chain(outcome -> settle(claim, outcome));
    }

    private Uni<Void> settle(ClaimedReminder claim, NotifierOutcome outcome) {
        if (outcome instanceof NotifierOutcome.Withheld) {
            LOG.warnf("reminder %d (version %d) was not sent: its claim's lease could not be kept; whoever holds the"
                    + " reminder now delivers it", claim.id(), claim.version());
            return Uni.createFrom().voidItem();
        }
        int attempts = claim.attempts() + 1;
        if (outcome instanceof NotifierOutcome.Delivered) {
            return settleAs(claim, DeliveryMeters.Outcome.SENT, () -> ledger.settleSent(claim, attempt(attempts, outcome, null), now()));
        }
        if (outcome instanceof NotifierOutcome.Permanent permanent) {
            return settleAs(claim, DeliveryMeters.Outcome.FAILED, () -> ledger.settleFailed(claim, attempt(attempts, outcome, permanent.error()),
                    permanent.error(), now()));
        }
        NotifierOutcome.Retryable retryable = (NotifierOutcome.Retryable) outcome;
        Attempt attempt = attempt(attempts, outcome, retryable.error());
        if (attempts >= maxAttempts) {
            return settleAs(claim, DeliveryMeters.Outcome.FAILED, () -> ledger.settleFailed(claim, attempt,
                    retryable.error() + " (after " + attempts + " attempts)", now()));
        }
        Duration wait = cappedAtTheWindow(retryable.retryAfter() != null ? retryable.retryAfter()
                : retryPolicy.backoffAfter(attempts));
        if (wait.compareTo(inlineRetryMax) <= 0) {
            Instant retryAt = now().plus(wait);
            return persistently(claim, () -> ledger.recordAttempt(claim, attempt, retryAt, now()))
                    .chain(kept -> kept ? pause.of(wait).chain(() -> attempt(claim.retriedAt(retryAt, attempts)))
                            : Uni.createFrom().voidItem().invoke(() -> logLostClaim(claim, false)));
        }
        return handBack(claim, attempt, wait);
    }

    private Attempt attempt(int number, NotifierOutcome outcome, String error) {
        return new Attempt(number, outcome.statusJson(), outcome.latencyMillis(), error, now());
    }

    /** No wait, however long the provider asks for, goes beyond the sweep window (docs/contract.md#delivery-to-the-notifier). */
    private Duration cappedAtTheWindow(Duration wait) {
        return wait.compareTo(longestWait) > 0 ? longestWait : wait;
    }

    /**
     * A long wait is not held in memory: the retry goes back on the queue with that delay under the next hand-off
     * number, so an instance scaled to zero meanwhile loses nothing, and the row records when it is due. If the queue
     * cannot take it, the row still records that time and the reconciler delivers it once the time and the grace have
     * passed.
     */
    private Uni<Void> handBack(ClaimedReminder claim, Attempt attempt, Duration wait) {
        Instant retryAt = now().plus(wait);
        return handOff.handBack(claim, claim.handoff(), claim.channel(), retryAt, Via.RETRY, claim.trace())
                .chain(messageId -> settleWith(claim,
                        () -> ledger.handBack(claim, attempt, claim.handoff() + 1, messageId, retryAt, now())));
    }

    /**
     * Gives a claim back at shutdown: the reminder goes on the queue again at once under the next hand-off number;
     * if the queue cannot take it, the lease ends now and the reconciler delivers it.
     */
    Uni<Void> release(ClaimedReminder claim) {
        claim.lease().settling();
        return handOff.handBack(claim, claim.handoff(), claim.channel(), now(), Via.RELEASE, claim.trace())
                .chain(messageId -> messageId != null ? ledger.release(claim, claim.handoff() + 1, messageId, now())
                        : ledger.endLease(claim, now()))
                .onFailure().recoverWithUni(failure -> ledger.endLease(claim, now()))
                .replaceWithVoid();
    }

    /** A settling write that ends the delivery with this outcome, counted once it is written. */
    private Uni<Void> settleAs(ClaimedReminder claim, DeliveryMeters.Outcome outcome, Supplier<Uni<Boolean>> write) {
        return settling(claim, write).invoke(settled -> {
            if (settled) {
                sideEffect(claim, () -> meters.settled(claim, outcome));
            }
        }).replaceWithVoid();
    }

    private Uni<Void> settleWith(ClaimedReminder claim, Supplier<Uni<Boolean>> write) {
        return settling(claim, write).replaceWithVoid();
    }

    /**
     * A settling write that ends this instance's part (its lease is no longer renewed): made persistently, its loss
     * logged; true when it was written.
     */
    private Uni<Boolean> settling(ClaimedReminder claim, Supplier<Uni<Boolean>> write) {
        claim.lease().settling();
        return persistently(claim, write).invoke(settled -> logLostClaim(claim, settled));
    }

    /**
     * A settling write is tried again, with growing pauses, while the claim's lease still holds: a row left
     * delivering after its send would be sent again by the reconciler. Past the lease the reconciler owns it.
     */
    private Uni<Boolean> persistently(ClaimedReminder claim, Supplier<Uni<Boolean>> write) {
        return persistently(claim, write, SETTLE_RETRY_FIRST);
    }

    private Uni<Boolean> persistently(ClaimedReminder claim, Supplier<Uni<Boolean>> write, Duration wait) {
        return Uni.createFrom().<Boolean>deferred(write::get).onFailure().recoverWithUni(failure -> {
            if (clock.instant().plus(wait).isAfter(claim.lease().until())) {
                return Uni.createFrom().failure(failure);
            }
            LOG.warnf("settling reminder %d failed (%s); trying again in %d ms", claim.id(), failure.getMessage(),
                    wait.toMillis());
            Duration next = wait.multipliedBy(2).compareTo(SETTLE_RETRY_MAX) > 0 ? SETTLE_RETRY_MAX : wait.multipliedBy(2);
            return pause.of(wait).chain(() -> persistently(claim, write, next));
        });
    }

    /** Metrics and logs after a settled write: whatever they throw, the row's state is already right. */
    private static void sideEffect(ClaimedReminder claim, Runnable effect) {
        try {
            effect.run();
        } catch (RuntimeException e) {
            LOG.warnf("bookkeeping after settling reminder %d failed: %s", claim.id(), e);
        }
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
