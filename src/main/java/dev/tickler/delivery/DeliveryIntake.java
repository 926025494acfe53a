package dev.tickler.delivery;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

import jakarta.enterprise.context.ApplicationScoped;

import org.jboss.logging.Logger;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.context.Context;
import io.quarkus.arc.Arc;
import io.smallrye.common.vertx.VertxContext;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;
import io.vertx.core.impl.ContextInternal;

import dev.tickler.config.TicklerConfig;
import dev.tickler.publish.ReminderMessage;
import dev.tickler.publish.Publication;
import dev.tickler.publish.ReminderPublisher;
import dev.tickler.publish.Via;
import dev.tickler.quiethours.QuietDecision;
import dev.tickler.quiethours.QuietHours;
import dev.tickler.handoff.OccurrenceFollowUp;
import dev.tickler.ledger.ReminderState;
import dev.tickler.time.Pause;
import dev.tickler.timeline.EventType;
import dev.tickler.timeline.Timeline;
import dev.tickler.timeline.TimelineEvent;
import dev.tickler.tracing.ReminderTracing;

/**
 * Push receiver and delivery after the transport (docs/contract.md#push-receiver, #delivery-to-the-notifier): claim a
 * message's reminder in one atomic UPDATE, then deliver it to the notifier within bounded concurrency and settle the
 * row. Push and poll both come through {@link #accept}.
 */
@ApplicationScoped
public class DeliveryService {

    private static final Logger LOG = Logger.getLogger(DeliveryService.class);
    private static final Duration SETTLE_RETRY_FIRST = Duration.ofMillis(250);
    private static final Duration SETTLE_RETRY_MAX = Duration.ofSeconds(10);
    private static final Duration LONGEST_RECORDABLE_LAG = Duration.ofNanos(Long.MAX_VALUE);

    /** Why a message claimed nothing; its label names it in the push answer and in tickler_push_ignored_total. */
    public enum Ignored {
        UNKNOWN, STALE, DUPLICATE, FINISHED, EARLY;

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
    private final OccurrenceFollowUp followUp;
    private final NotifierClient notifier;
    private final ReminderPublisher publisher;
    private final Timeline timeline;
    private final ReminderTracing tracing;
    private final Clock clock;
    private final Pause pause;
    private final MeterRegistry registry;
    private final TicklerConfig.Delivery config;
    private final int maxAttempts;
    private final int maxTakeovers;
    private final Counter poisoned;
    private final RetryPolicy retryPolicy;
    private final NotifierThrottle throttle;
    private final Timer dispatchLag;
    private final Map<Ignored, Counter> ignoredPushes = new EnumMap<>(Ignored.class);
    private final HeldDeliveries held;
    private final Duration earlyTolerance;
    private final Duration longestWait;
    private volatile boolean accepting = true;

    public DeliveryService(ClaimRepository claims, HeldDeliveries held, OccurrenceFollowUp followUp,
            NotifierClient notifier, ReminderPublisher publisher, Timeline timeline, ReminderTracing tracing,
            Clock clock, Pause pause, Vertx vertx, MeterRegistry registry, TicklerConfig config) {
        this.claims = claims;
        this.held = held;
        this.earlyTolerance = config.push().earlyTolerance();
        this.longestWait = config.sweep().window();
        this.followUp = followUp;
        this.timeline = timeline;
        this.tracing = tracing;
        this.notifier = notifier;
        this.publisher = publisher;
        this.clock = clock;
        this.pause = pause;
        this.registry = registry;
        this.config = config.delivery();
        this.maxAttempts = config.notifier().maxAttempts();
        this.maxTakeovers = config.reconcile().maxTakeovers();
        this.poisoned = Counter.builder("tickler.reconcile.gave.up")
                .description("Reminders failed by the poison guard: taken over too often without settling")
                .register(registry);
        this.retryPolicy = RetryPolicy.of(config.notifier());
        // the pace's timers are Vert.x timers of their own, not pauses of a delivery
        this.throttle = new NotifierThrottle(config.notifier().concurrency(), config.notifier().rateLimit(),
                System::nanoTime, (delayNanos, action) -> vertx.setTimer(Math.max(1, delayNanos / 1_000_000),
                        timerId -> action.run()));
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
        Gauge.builder("tickler.notify.concurrency.limit", throttle, NotifierThrottle::concurrencyLimit)
                .description("Current bound on in-flight notifier calls; follows the provider's latency")
                .register(registry);
        Gauge.builder("tickler.notify.in.flight", throttle, NotifierThrottle::inFlight)
                .description("Notifier calls in flight now, with those waiting for their turn in the pace")
                .register(registry);
        Gauge.builder("tickler.notify.pace", throttle, NotifierThrottle::pacePerSecond)
                .description("Sends a second this instance allows itself; learned from 429s, capped by "
                        + "tickler.notify.rate-limit, +Inf while unpaced")
                .register(registry);
    }

    /** {@link #accept(ReminderMessage, Integer, Transport, Context)} in the trace the message carries. */
    public Uni<Acceptance> accept(ReminderMessage message, Integer deliveryCount, Transport transport) {
        return accept(message, deliveryCount, transport, tracing.extract(message.traceparent(), message.tracestate()));
    }

    public Uni<Acceptance> accept(ReminderMessage message, Transport transport) {
        return accept(message, null, transport);
    }

    /**
     * Claims the message's reminder and starts its delivery, in the given trace (the push's span, or the one the
     * message carries); {@code deliveryCount} is the queue's, null when it did not say. A message for a reminder that
     * is not due yet claims nothing (docs/contract.md#push-receiver). Fails only when Postgres cannot be asked, so the
     * caller can make the queue deliver the message again.
     */
    public Uni<Acceptance> accept(ReminderMessage message, Integer deliveryCount, Transport transport, Context trace) {
        if (!accepting) {
            return Uni.createFrom().item(new Acceptance.Refused("shutting down"));
        }
        if (held.size() >= config.maxBacklog()) {
            return Uni.createFrom().item(new Acceptance.Refused("backlog of " + held.size() + " deliveries is full"));
        }
        Instant now = now();
        Span span = tracing.startClaim(trace, message.reminderId(), message.version(), transport.wireName());
        Uni<Acceptance> claim = claims.claim(message.reminderId(), message.version(), now, now.plus(held.lease()),
                        now.plus(earlyTolerance), transport.wireName(), deliveryCount)
                .chain(claimed -> claimed.isPresent()
                        ? Uni.createFrom().item(startDelivery(claimed.get().withTrace(trace)))
                        : whyNotClaimed(message, now).map(Acceptance.NotClaimed::new));
        if (tracing.enabled()) {
            claim = claim.onItemOrFailure().invoke((acceptance, failure) -> tracing.end(span, failure != null
                    ? "unavailable" : acceptance instanceof Acceptance.NotClaimed ignored ? ignored.reason().label()
                    : "claimed", failure));
        }
        return detached(claim);
    }

    /**
     * The reconciler's way in: the same claim and delivery, counted as a take-over. A reminder taken over
     * tickler.reconcile.max-takeovers times without ever settling is failed instead (the poison guard); empty when
     * nothing was claimed.
     */
    public Uni<Optional<Acceptance.Claimed>> takeOver(ReminderMessage message, TakeOverReason reason) {
        Instant now = now();
        // a trace of its own, linked to the registration whose traceparent the message carries
        Span span = tracing.startTakeOver(message.traceparent(), message.reminderId(), message.version(),
                reason.wireName());
        Context trace = tracing.within(Context.root(), span);
        return detached(claims.takeOver(message.reminderId(), message.version(), now, now.plus(held.lease()),
                        maxTakeovers, reason.wireName())
                .chain(claimed -> claimed.isPresent()
                        ? Uni.createFrom().item(Optional.of(startDelivery(claimed.get().withTrace(trace))))
                        : giveUpIfPoisoned(message, now).replaceWith(Optional.<Acceptance.Claimed>empty()))
                .onItemOrFailure().invoke((claimed, failure) -> tracing.end(span,
                        claimed != null && claimed.isPresent() ? "claimed" : "not_claimed", failure)));
    }

    private Uni<Void> giveUpIfPoisoned(ReminderMessage message, Instant now) {
        String error = "taken over by the reconciler " + maxTakeovers
                + " times without its delivery ever settling; failed instead of sent again";
        return claims.giveUp(message.reminderId(), message.version(), now, maxTakeovers, error).invoke(gaveUp -> {
            if (gaveUp) {
                poisoned.increment();
                LOG.warnf("reminder %d (version %d) %s", message.reminderId(), message.version(), error);
            }
        }).replaceWithVoid();
    }

    /**
     * Runs the work to its end whatever its subscriber does: a push whose client hangs up, or a request that is
     * cancelled, must not leave a claim made in Postgres without the delivery that follows it
     * (docs/contract.md#push-receiver).
     */
    private static <T> Uni<T> detached(Uni<T> work) {
        return Uni.createFrom().emitter(emitter -> work.subscribe().with(emitter::complete, emitter::fail));
    }

    /** Stops claiming: from now on every message is refused so the queue keeps it. */
    void stopAccepting() {
        accepting = false;
    }

    /** The claims this instance still holds, for release at shutdown. */
    Map<Long, ClaimedReminder> held() {
        return held.view();
    }

    /**
     * A delivery outlives the request that claimed it, so its pipeline is put together on a Vert.x context of its own:
     * every callback Mutiny is given captures the CDI request context active then, and a delivery waiting for its
     * turn would otherwise keep the finished request's context and beans alive (docs/delivery.md). The request context
     * lives in the request's duplicated Vert.x context, whose ArC state cannot be removed, only left.
     */
    private Acceptance.Claimed startDelivery(ClaimedReminder claim) {
        io.vertx.core.Context current = Vertx.currentContext();
        if (current == null || Arc.container().requestContext().getStateIfActive() == null) {
            return startDeliveryInThisContext(claim);
        }
        // dispatching runs the assembly now, on this thread, with the fresh context as the current one
        ContextInternal own = (ContextInternal) VertxContext.createNewDuplicatedContext(current);
        ContextInternal previous = own.beginDispatch();
        try {
            return startDeliveryInThisContext(claim);
        } finally {
            own.endDispatch(previous);
        }
    }

    private Acceptance.Claimed startDeliveryInThisContext(ClaimedReminder claim) {
        held.add(claim);
        Uni<Void> settled = deliver(claim)
                .onFailure().invoke(failure -> LOG.errorf(failure,
                        "delivery of reminder %d could not be settled; its lease will run out and it is delivered again",
                        claim.id()))
                .onFailure().recoverWithNull()
                .onTermination().invoke(() -> held.remove(claim))
                .memoize().indefinitely();
        settled.subscribe().with(ignored -> followUpIfScheduled(claim));
        return new Acceptance.Claimed(claim, settled);
    }

    /**
     * A schedule's occurrence that settled may have ended: its schedule creates the next one. Not part of the
     * settlement (a one-shot reminder pays one null check); should it fail, the sweep's backstop does it.
     */
    private void followUpIfScheduled(ClaimedReminder claim) {
        if (claim.scheduleId() != null) {
            followUp.occurrenceEnded(claim.scheduleId()).subscribe().with(ignored -> {
            });
        }
    }

    /** Counts the reason, and writes it to the reminder's timeline when there is such a reminder. */
    private Uni<Ignored> whyNotClaimed(ReminderMessage message, Instant claimedAt) {
        return claims.stateOf(message.reminderId()).map(row -> {
            Ignored reason;
            if (row.isEmpty()) {
                reason = Ignored.UNKNOWN;
            } else if (row.get().version() != message.version()) {
                reason = Ignored.STALE;
            } else {
                ReminderState state = row.get().state();
                if (state == ReminderState.PENDING || state == ReminderState.HANDED_OFF) {
                    // claimable, so it was not due: the queue never delivers early, this one was forged or misrouted
                    reason = row.get().dueAt().isAfter(claimedAt.plus(earlyTolerance)) ? Ignored.EARLY
                            : Ignored.FINISHED;
                } else {
                    reason = state == ReminderState.DELIVERING || state == ReminderState.SENT
                            ? Ignored.DUPLICATE : Ignored.FINISHED;
                }
            }
            ignoredPushes.get(reason).increment();
            return reason;
        }).call(reason -> reason == Ignored.UNKNOWN ? Uni.createFrom().voidItem()
                : timeline.append(new TimelineEvent(message.reminderId(), now(), EventType.IGNORED,
                        Map.of("reason", reason.label(), "version", message.version()))));
    }

    /**
     * The user's quiet hours, as the claim read them, are checked before the first attempt (docs/quiet-hours.md):
     * inside a window the reminder is deferred to its end or skipped; expiry still wins.
     */
    private Uni<Void> deliver(ClaimedReminder claim) {
        Instant now = now();
        if (claim.expiresAt() != null && now.isAfter(claim.expiresAt())) {
            return attempt(claim);
        }
        QuietDecision decision = QuietHours.check(claim.quietHours(), now, claim.channel(), claim.expiresAt());
        if (decision instanceof QuietDecision.Deferred deferred) {
            return defer(claim, deferred, now);
        }
        if (decision instanceof QuietDecision.Skipped) {
            return settleWith(claim, () -> claims.markSkipped(claim, now));
        }
        if (decision instanceof QuietDecision.Expired expired) {
            return settleWith(claim, () -> claims.markExpired(claim, expired.error(), now));
        }
        return attempt(claim);
    }

    /**
     * Back on the queue for the window's end under the next hand-off number, same version and send key. If the queue
     * cannot take it, the row still waits as deferred and the reconciler delivers it once the window is over.
     */
    private Uni<Void> defer(ClaimedReminder claim, QuietDecision.Deferred deferred, Instant now) {
        Instant dueAt = deferred.dueAt(now);
        return republish(claim, dueAt, Via.QUIET_HOURS)
                .onFailure().recoverWithItem(publishFailure -> {
                    LOG.warnf("deferral of reminder %d could not be put on the queue (%s); the reconciler delivers it"
                            + " after the quiet window", claim.id(), publishFailure.getMessage());
                    return null;
                })
                .chain(messageId -> settleWith(claim,
                        () -> claims.defer(claim, claim.handoff() + 1, messageId, dueAt, deferred.until(), now)));
    }

    /**
     * One notifier attempt for a held claim, then whatever its outcome calls for
     * (docs/contract.md#delivery-to-the-notifier).
     */
    private Uni<Void> attempt(ClaimedReminder claim) {
        if (claim.expiresAt() != null && now().isAfter(claim.expiresAt())) {
            return settleWith(claim, () -> claims.markExpired(claim, now()));
        }
        // the lease is checked when the call is about to go out, after whatever wait for a slot or the pace
        return throttle.send(() -> held.keepForSend(claim).chain(kept -> kept ? notifier.send(claim)
                        : Uni.createFrom().item(NotifierOutcome.WITHHELD)))
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
            return settleWith(claim, () -> claims.markSent(claim, new Attempt(attempts, outcome, null, now()), now()))
                    .invoke(() -> sideEffect(claim, () -> recordDispatchLag(claim.dueAt())));
        }
        if (outcome instanceof NotifierOutcome.Permanent permanent) {
            return settleWith(claim, () -> claims.markFailed(claim,
                    new Attempt(attempts, outcome, permanent.error(), now()), permanent.error(), now()));
        }
        NotifierOutcome.Retryable retryable = (NotifierOutcome.Retryable) outcome;
        Attempt attempt = new Attempt(attempts, outcome, retryable.error(), now());
        if (attempts >= maxAttempts) {
            return settleWith(claim, () -> claims.markFailed(claim, attempt,
                    retryable.error() + " (after " + attempts + " attempts)", now()));
        }
        Duration wait = cappedAtTheWindow(retryable.retryAfter() != null ? retryable.retryAfter()
                : retryPolicy.backoffAfter(attempts));
        if (wait.compareTo(config.inlineRetryMax()) <= 0) {
            return persistently(claim, () -> claims.recordAttempt(claim, attempt, now()))
                    .chain(kept -> kept ? pause.of(wait).chain(() -> attempt(claim.withAttempts(attempts)))
                            : Uni.createFrom().voidItem().invoke(() -> logLostClaim(claim, false)));
        }
        return handBack(claim, attempt, wait);
    }

    /** No wait, however long the provider asks for, goes beyond the sweep window (docs/contract.md#delivery-to-the-notifier). */
    private Duration cappedAtTheWindow(Duration wait) {
        return wait.compareTo(longestWait) > 0 ? longestWait : wait;
    }

    /** A settling write that ends this instance's part (its lease is no longer renewed): made persistently, its loss logged. */
    private Uni<Void> settleWith(ClaimedReminder claim, Supplier<Uni<Boolean>> write) {
        claim.lease().settling();
        return persistently(claim, write).invoke(settled -> logLostClaim(claim, settled)).replaceWithVoid();
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

    /** The timer holds nanoseconds in a long: a lag beyond about 292 years is not a lag worth a sample. */
    private void recordDispatchLag(Instant fireAt) {
        Duration lag = Duration.between(fireAt, clock.instant());
        if (!lag.isNegative() && lag.compareTo(LONGEST_RECORDABLE_LAG) <= 0) {
            dispatchLag.record(lag);
        }
    }

    /**
     * A long wait is not held in memory: the retry goes back on the queue with that delay under the next hand-off
     * number, so an instance scaled to zero meanwhile loses nothing, and the row records when it is due. If the queue
     * cannot take it, the row still records that time and the reconciler delivers it once the time and the grace have
     * passed.
     */
    private Uni<Void> handBack(ClaimedReminder claim, Attempt attempt, Duration wait) {
        Instant retryAt = now().plus(wait);
        return republish(claim, retryAt, Via.RETRY)
                .onFailure().recoverWithItem(publishFailure -> {
                    LOG.warnf("retry of reminder %d could not be put on the queue (%s); the reconciler delivers it"
                            + " after %s", claim.id(), publishFailure.getMessage(), retryAt);
                    return null;
                })
                .chain(messageId -> settleWith(claim,
                        () -> claims.handBack(claim, attempt, claim.handoff() + 1, messageId, retryAt, now())));
    }

    /**
     * Gives a claim back at shutdown: the reminder goes on the queue again at once under the next hand-off number;
     * if the queue cannot take it, the lease ends now and the reconciler delivers it.
     */
    Uni<Void> release(ClaimedReminder claim) {
        claim.lease().settling();
        return republish(claim, now(), Via.RELEASE)
                .chain(messageId -> claims.release(claim, claim.handoff() + 1, messageId, now()))
                .onFailure().recoverWithUni(publishFailure -> claims.endLease(claim, now()))
                .replaceWithVoid();
    }

    /** The claimed reminder back on the queue under the next hand-off number, so the queue does not deduplicate it. */
    private Uni<String> republish(ClaimedReminder claim, Instant dueAt, Via via) {
        return publisher.publish(new Publication(claim.id(), claim.version(), claim.handoff() + 1, claim.channel(), dueAt,
                via, claim.trace(), null));
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
