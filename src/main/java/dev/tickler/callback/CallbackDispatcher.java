package dev.tickler.callback;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Singleton;

import org.jboss.logging.Logger;

import io.quarkus.scheduler.Scheduled;
import io.quarkus.scheduler.ScheduledExecution;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;

import dev.tickler.config.TicklerConfig;
import dev.tickler.observability.FirstRequest;
import dev.tickler.security.TenantCallbacks;

/**
 * Sends the outbox's due callback events (docs/api.md, "Delivery callbacks": who sends them): every
 * tickler.callbacks.every, on each instance that dispatches, a pass per tenant (one at a time for each) claims the
 * tenant's due events in batches ({@code FOR UPDATE SKIP LOCKED}, so instances share them), tries each through
 * {@link CallbackSender} with at most tickler.callbacks.concurrency in flight, and records each outcome: delivered, or
 * due again after a pause that doubles from 1 s up to tickler.callbacks.max-backoff, until the event's retention would
 * be over. Nothing on the delivery path waits for it or shares its clients; it touches Postgres only through the
 * outbox's own table and indexes.
 */
@ApplicationScoped
public class CallbackDispatcher {

    private static final Logger LOG = Logger.getLogger(CallbackDispatcher.class);
    /** Events claimed at once, per slot of concurrency. */
    private static final int CLAIMED_PER_SLOT = 4;

    private final CallbackRepository repository;
    private final CallbackSender sender;
    private final CallbackBody bodies;
    private final CallbackMeters meters;
    private final TenantCallbacks callbacks;
    private final Clock clock;
    private final TicklerConfig.Callbacks config;
    private final int batchSize;
    private final Duration hold;
    /** The tenants whose pass is running. */
    private final Map<String, AtomicBoolean> passing = new ConcurrentHashMap<>();

    public CallbackDispatcher(CallbackRepository repository, CallbackSender sender, CallbackBody bodies,
            CallbackMeters meters, TenantCallbacks callbacks, Clock clock, TicklerConfig config) {
        this.repository = repository;
        this.sender = sender;
        this.bodies = bodies;
        this.meters = meters;
        this.callbacks = callbacks;
        this.clock = clock;
        this.config = config.callbacks();
        this.batchSize = this.config.concurrency() * CLAIMED_PER_SLOT;
        // a batch is tried in CLAIMED_PER_SLOT rounds of at most one timeout each; an instance that dies holding it
        // lets the others try it once the hold is over
        this.hold = this.config.timeout().multipliedBy(CLAIMED_PER_SLOT + 1);
    }

    /**
     * Starts the pass of every tenant whose last one has ended and answers at once: each tenant's events are claimed
     * and tried by a pass of its own, so an endpoint that hangs holds up only its own tenant's callbacks.
     */
    @Scheduled(identity = "callbacks", every = "${tickler.callbacks.every:1s}", delayed = "1s",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP, skipExecutionIf = NotHere.class)
    Uni<Void> scheduledPass() {
        callbacks.tenants().forEach(this::startPass);
        return Uni.createFrom().voidItem();
    }

    private void startPass(String tenant) {
        AtomicBoolean running = passing.computeIfAbsent(tenant, name -> new AtomicBoolean());
        if (!running.compareAndSet(false, true)) {
            return;
        }
        dispatchDue(tenant, 0)
                .onTermination().invoke(() -> running.set(false))
                .subscribe().with(delivered -> {
                }, failure -> LOG.warnf("callback dispatch of tenant %s failed: %s", tenant, failure.getMessage()));
    }

    /**
     * Batch after batch of the tenant's due events until a batch comes back short, or one delivered nothing (its
     * endpoint is down: the next pass tries again, so a failing endpoint costs one batch a pass); answers how many were
     * delivered.
     */
    private Uni<Integer> dispatchDue(String tenant, int deliveredSoFar) {
        Instant now = now();
        return repository.claimDue(tenant, now, now.minus(config.retention()), now.plus(hold), batchSize)
                .chain(batch -> tryAll(batch).chain(delivered -> batch.size() < batchSize || delivered == 0
                        ? Uni.createFrom().item(deliveredSoFar + delivered)
                        : dispatchDue(tenant, deliveredSoFar + delivered)));
    }

    private Uni<Integer> tryAll(List<CallbackRepository.Claimed> batch) {
        if (batch.isEmpty()) {
            return Uni.createFrom().item(0);
        }
        return Multi.createFrom().iterable(batch)
                .onItem().transformToUni(this::tryOnce).merge(config.concurrency())
                .collect().asList()
                .map(outcomes -> (int) outcomes.stream().filter(TryOutcome::delivered).count());
    }

    /** One try of one event and its outcome on the row; a failure of either is logged and counts as not delivered. */
    private Uni<TryOutcome> tryOnce(CallbackRepository.Claimed event) {
        String tenant = event.reminder().tenant();
        return Uni.createFrom().item(() -> bodies.of(event))
                .chain(body -> sender.send(tenant, Long.toString(event.id()), clock.instant().getEpochSecond(), body))
                .chain(outcome -> record(event, outcome))
                .onFailure().recoverWithItem(failure -> {
                    LOG.warnf("callback event %d of tenant %s: %s", event.id(), tenant, failure.getMessage());
                    return new TryOutcome(TryOutcome.Kind.ERROR, null, failure.getMessage());
                });
    }

    private Uni<TryOutcome> record(CallbackRepository.Claimed event, TryOutcome outcome) {
        String tenant = event.reminder().tenant();
        Instant answered = now();
        meters.tried(tenant, outcome.kind());
        if (outcome.delivered()) {
            return repository.record(event, outcome.status(), null, answered, null).replaceWith(outcome);
        }
        Instant next = answered.plus(Backoff.after(event.attempts() + 1, config.maxBackoff()));
        if (next.isAfter(event.triedSince().plus(config.retention()))) {
            meters.tried(tenant, TryOutcome.Kind.GIVEN_UP);
            LOG.warnf("callback event %d (%s of reminder %d) of tenant %s given up after %d tries: %s", event.id(),
                    event.type(), event.reminder().id(), tenant, event.attempts() + 1, outcome.error());
            next = null;
        }
        return repository.record(event, outcome.status(), outcome.error(), null, next).replaceWith(outcome);
    }

    private Instant now() {
        return clock.instant().truncatedTo(ChronoUnit.MICROS);
    }

    /**
     * Skips the pass where nothing is to be sent from: no tenant has callbacks, tickler.callbacks.dispatch is off, or
     * a serving instance has not served its first request yet (a cold start asks Postgres nothing before it serves;
     * an instance that runs the scheduled sweep dispatches from its start, as it may never be asked anything).
     */
    @Singleton
    public static class NotHere implements Scheduled.SkipPredicate {

        private final boolean dispatches;
        private final boolean sweeps;
        private final FirstRequest firstRequest;

        public NotHere(TenantCallbacks callbacks, TicklerConfig config, FirstRequest firstRequest) {
            this.dispatches = callbacks.any() && config.callbacks().dispatch();
            this.sweeps = config.sweep().enabled();
            this.firstRequest = firstRequest;
        }

        @Override
        public boolean test(ScheduledExecution execution) {
            return !dispatches || !(sweeps || firstRequest.seen());
        }
    }
}
