package dev.tickler.delivery;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;

import org.jboss.logging.Logger;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.context.Context;
import io.quarkus.arc.Arc;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;

import dev.tickler.config.TicklerConfig;
import dev.tickler.handoff.OccurrenceFollowUp;
import dev.tickler.ledger.ReminderLedger;
import dev.tickler.ledger.ReminderState;
import dev.tickler.publish.ReminderMessage;
import dev.tickler.security.Tenants;
import dev.tickler.time.VertxInternals;
import dev.tickler.timeline.EventType;
import dev.tickler.timeline.Timeline;
import dev.tickler.timeline.TimelineEvent;
import dev.tickler.tracing.ReminderTracing;

/**
 * How a queue message becomes a delivery (docs/contract.md#push-receiver): one atomic claim in Postgres, then the
 * delivery starts apart from whoever brought the message, held by this instance ({@link HeldDeliveries}) until
 * {@link Settlement} has settled it. Push, poll and the reconciler's take-over all come through here.
 */
@ApplicationScoped
public class DeliveryIntake {

    private static final Logger LOG = Logger.getLogger(DeliveryIntake.class);

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

    private final ReminderLedger ledger;
    private final HeldDeliveries held;
    private final Settlement settlement;
    private final OccurrenceFollowUp followUp;
    private final Timeline timeline;
    private final ReminderTracing tracing;
    private final DeliveryMeters meters;
    private final Clock clock;
    private final BacklogShares shares;
    private final int maxTakeovers;
    private final Duration earlyTolerance;
    private volatile boolean accepting = true;

    public DeliveryIntake(ReminderLedger ledger, HeldDeliveries held, Settlement settlement,
            OccurrenceFollowUp followUp, Timeline timeline, ReminderTracing tracing, DeliveryMeters meters,
            Clock clock, TicklerConfig config) {
        this.ledger = ledger;
        this.held = held;
        this.settlement = settlement;
        this.followUp = followUp;
        this.timeline = timeline;
        this.tracing = tracing;
        this.meters = meters;
        this.clock = clock;
        this.shares = new BacklogShares(config.delivery().maxBacklog());
        this.maxTakeovers = config.reconcile().maxTakeovers();
        this.earlyTolerance = config.push().earlyTolerance();
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
        String full = backlogFullFor(message.tenant() == null ? Tenants.DEFAULT : message.tenant());
        if (full != null) {
            return Uni.createFrom().item(new Acceptance.Refused(full));
        }
        Instant now = now();
        Span span = tracing.startClaim(trace, message.reminderId(), message.version(), transport.wireName());
        Uni<Acceptance> claim = ledger.claim(message.reminderId(), message.version(), now, now.plus(held.lease()),
                        now.plus(earlyTolerance), transport.wireName(), deliveryCount)
                .chain(claimed -> claimed.isPresent()
                        ? Uni.createFrom().item(startDelivery(ClaimedReminder.of(claimed.get()).withTrace(trace)))
                        : whyNotClaimed(message, now).map(Acceptance.NotClaimed::new));
        if (tracing.enabled()) {
            claim = claim.onItemOrFailure().invoke((acceptance, failure) -> tracing.end(span, failure != null
                    ? "unavailable" : acceptance instanceof Acceptance.NotClaimed ignored ? ignored.reason().label()
                    : "claimed", failure));
        }
        return detached(claim);
    }

    /** Why the backlog takes no more of this tenant's deliveries, or null when it takes this one. */
    private String backlogFullFor(String tenant) {
        int total = held.size();
        int holding = held.heldBy(tenant);
        return shares.admits(total, holding, held.tenantsHolding()) ? null
                : "backlog of " + total + " deliveries is full (" + holding + " of them this tenant's)";
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
        return detached(ledger.takeOver(message.reminderId(), message.version(), now, now.plus(held.lease()),
                        maxTakeovers, reason.wireName())
                .chain(claimed -> claimed.isPresent()
                        ? Uni.createFrom().item(Optional.of(startDelivery(ClaimedReminder.of(claimed.get())
                                .withTrace(trace))))
                        : giveUpIfPoisoned(message, now).replaceWith(Optional.<Acceptance.Claimed>empty()))
                .onItemOrFailure().invoke((claimed, failure) -> tracing.end(span,
                        claimed != null && claimed.isPresent() ? "claimed" : "not_claimed", failure)));
    }

    private Uni<Void> giveUpIfPoisoned(ReminderMessage message, Instant now) {
        String error = "taken over by the reconciler " + maxTakeovers
                + " times without its delivery ever settling; failed instead of sent again";
        return ledger.giveUp(message.reminderId(), message.version(), now, maxTakeovers, error).invoke(gaveUp -> {
            if (gaveUp) {
                meters.gaveUp();
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
     * the request's Vert.x context holds its CDI request context (Quarkus keeps ArC's contexts there), and a delivery
     * waiting for its turn on that context would keep the finished request's context and beans alive
     * (docs/delivery.md).
     */
    private Acceptance.Claimed startDelivery(ClaimedReminder claim) {
        io.vertx.core.Context current = Vertx.currentContext();
        if (current == null || Arc.container().requestContext().getStateIfActive() == null) {
            return startDeliveryInThisContext(claim);
        }
        return VertxInternals.onFreshDuplicate(current, () -> startDeliveryInThisContext(claim));
    }

    private Acceptance.Claimed startDeliveryInThisContext(ClaimedReminder claim) {
        held.add(claim);
        Uni<Void> settled = settlement.deliver(claim)
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
        return ledger.stateOf(message.reminderId()).map(row -> {
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
            meters.ignored(reason);
            return reason;
        }).call(reason -> reason == Ignored.UNKNOWN ? Uni.createFrom().voidItem()
                : timeline.append(new TimelineEvent(message.reminderId(), now(), EventType.IGNORED,
                        Map.of("reason", reason.label(), "version", message.version()))));
    }

    private Instant now() {
        return clock.instant().truncatedTo(ChronoUnit.MICROS);
    }
}
