package dev.tickler.delivery;

import java.util.Optional;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

import io.smallrye.mutiny.Uni;

/**
 * Which notifier calls go next, how many run at once and how fast they start: a call waits for its tenant's turn
 * ({@link TenantTurns}, as many as the concurrency limit, so the queue for slots stays short), takes a concurrency
 * slot, waits for its turn in the pace, and only then goes out, so the time it waited is not taken for the provider's
 * latency. Its answer teaches both: a 2xx is a latency sample, told apart from this instance's own delay
 * ({@link LocalDelay}); a 429 is the provider refusing a send that counted against its quota, and cuts the pace.
 */
final class NotifierThrottle {

    private final AdaptiveConcurrency concurrency;
    private final SendRate pace;
    private final LocalDelay localDelay;
    private final TenantTurns turns;
    private final LongSupplier nanoTime;

    NotifierThrottle(int concurrencyCeiling, Optional<Double> rateLimit, LongSupplier nanoTime, SendRate.Timer timer) {
        this.concurrency = new AdaptiveConcurrency(concurrencyCeiling);
        this.pace = new SendRate(rateLimit, nanoTime, timer);
        this.localDelay = new LocalDelay(nanoTime, timer);
        this.turns = new TenantTurns(concurrency::limit);
        this.nanoTime = nanoTime;
    }

    /** One call of this tenant's, made once it is its turn, a slot is free and the pace lets it go. */
    Uni<NotifierOutcome> send(String tenant, Supplier<Uni<NotifierOutcome>> call) {
        return turns.take(tenant).chain(turn -> withinLimits(call).onTermination().invoke(turn::release));
    }

    private Uni<NotifierOutcome> withinLimits(Supplier<Uni<NotifierOutcome>> call) {
        return concurrency.acquire().chain(slot -> pace.turn().chain(() -> {
            long started = nanoTime.getAsLong();
            pace.departed();
            localDelay.watch();
            return Uni.createFrom().<NotifierOutcome>deferred(call::get).invoke(outcome -> learn(slot, outcome, started));
        }).onTermination().invoke(slot::releaseUnmeasured));
    }

    private void learn(AdaptiveConcurrency.Slot slot, NotifierOutcome outcome, long started) {
        if (outcome instanceof NotifierOutcome.Delivered) {
            concurrency.pace(pace.perSecond());
            slot.release(nanoTime.getAsLong() - started, localDelay.since(started));
        } else if (outcome instanceof NotifierOutcome.Retryable retryable && retryable.rateLimited()) {
            pace.rateLimited(started, retryable.retryAfter());
        }
    }

    int concurrencyLimit() {
        return concurrency.limit();
    }

    int inFlight() {
        return concurrency.inFlight();
    }

    /** Calls waiting for their tenant's turn. */
    int waitingForTurns() {
        return turns.waiting();
    }

    /** Sends a second the pace allows now; infinite while unpaced. */
    double pacePerSecond() {
        return pace.perSecond();
    }

    /** How late this instance ran its own timers in the last second, in seconds: its own share of a latency. */
    double localDelaySeconds() {
        return localDelay.inLastSecond() / 1e9;
    }

    /**
     * How late this instance runs its own timers: while calls go out, a timer every {@value #EVERY_NANOS} ns notes
     * how late it fired. On two shared cores flooded with pushes, or in a collection pause, the event loops and the
     * machine are behind, and so is every answer read meanwhile; a provider that queues calls slows the answers but
     * not these timers. What the timers noted during a call is this instance's share of that call's latency.
     */
    static final class LocalDelay {

        static final long EVERY_NANOS = 20_000_000;
        /** Probing stops once no call has gone out for this long, so an idle instance sets no timers. */
        static final long IDLE_AFTER_NANOS = 1_000_000_000;
        /** Probes kept: five seconds' worth; a longer call is judged by all of them. */
        static final int KEPT = 250;

        private final LongSupplier nanoTime;
        private final SendRate.Timer timer;
        private final long[] firedAt = new long[KEPT];
        private final long[] lateness = new long[KEPT];
        private int newest = -1;
        private int count;
        private boolean probing;
        private long nextDue;
        private long lastUse;

        LocalDelay(LongSupplier nanoTime, SendRate.Timer timer) {
            this.nanoTime = nanoTime;
            this.timer = timer;
        }

        /** A call goes out now: probe while calls do. */
        void watch() {
            long now = nanoTime.getAsLong();
            synchronized (this) {
                lastUse = now;
                if (probing) {
                    return;
                }
                probing = true;
                nextDue = now + EVERY_NANOS;
            }
            timer.after(EVERY_NANOS, this::fired);
        }

        private void fired() {
            long now = nanoTime.getAsLong();
            synchronized (this) {
                newest = (newest + 1) % KEPT;
                firedAt[newest] = now;
                lateness[newest] = Math.max(0, now - nextDue);
                count = Math.min(KEPT, count + 1);
                if (now - lastUse > IDLE_AFTER_NANOS) {
                    probing = false;
                    return;
                }
                nextDue = now + EVERY_NANOS;
            }
            timer.after(EVERY_NANOS, this::fired);
        }

        /**
         * The latest a timer ran since {@code started}: those that fired since, and the one due now if it is overdue
         * (the stall an answer is read after may still hold it). A call shorter than the probes' spacing mostly sees
         * none of them fire, so every call is judged by at least the probes of the last two spacings: a flood that
         * keeps every timer a few milliseconds late keeps a sub-millisecond call's answer as late.
         */
        synchronized long since(long started) {
            long now = nanoTime.getAsLong();
            long from = Math.min(started, now - 2 * EVERY_NANOS);
            long latest = probing ? Math.max(0, now - nextDue) : 0;
            for (int i = 0, at = newest; i < count && firedAt[at] >= from; i++, at = (at - 1 + KEPT) % KEPT) {
                latest = Math.max(latest, lateness[at]);
            }
            return latest;
        }

        synchronized long inLastSecond() {
            return since(nanoTime.getAsLong() - 1_000_000_000L);
        }
    }
}
