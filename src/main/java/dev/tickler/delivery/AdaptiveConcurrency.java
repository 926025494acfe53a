package dev.tickler.delivery;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

import io.smallrye.mutiny.Uni;

/**
 * Bounds the calls in flight toward the notifier (SPEC §5) and finds the bound by itself, as TCP Vegas finds a
 * window: it compares each call's latency with the lowest latency seen lately (the provider unloaded). While they
 * stay close, calls are not queueing at the provider and the limit grows; once the estimated queue
 * ({@code limit × (1 − lowest / latest)}) passes a few calls, it shrinks. A 429 halves it at once. The limit never
 * leaves [1, ceiling], and it only grows while calls actually press against it, so an idle instance does not
 * inflate it. The lowest latency is forgotten now and then, so that a provider that got slower for good is
 * measured again instead of looking congested forever.
 */
final class AdaptiveConcurrency {

    /** Where the limit starts: enough for a fast provider at once, little enough to learn a slow one cheaply. */
    static final int INITIAL_LIMIT = 16;
    /** Calls between two forgettings of the lowest latency. */
    static final int PROBE_EVERY = 2_000;

    private final int ceiling;
    private final LongSupplier nanoTime;
    private final Deque<Runnable> waiting = new ArrayDeque<>();
    private double limit;
    private int inFlight;
    private long lowestNanos = Long.MAX_VALUE;
    private long samplesSinceProbe;

    AdaptiveConcurrency(int ceiling, LongSupplier nanoTime) {
        this.ceiling = ceiling;
        this.nanoTime = nanoTime;
        this.limit = Math.min(ceiling, INITIAL_LIMIT);
    }

    /** Runs the call once a slot is free; the slot is held until the call's Uni ends, and its latency is sampled. */
    <T> Uni<T> run(Supplier<Uni<T>> call) {
        return Uni.createFrom().emitter(emitter -> acquire(() -> {
            long started = nanoTime.getAsLong();
            Uni.createFrom().<T>deferred(call::get)
                    .onTermination().invoke(() -> release(nanoTime.getAsLong() - started))
                    .subscribe().with(emitter::complete, emitter::fail);
        }));
    }

    /** The provider said 429: back off hard, whatever the latency says. */
    synchronized void rateLimited() {
        limit = Math.max(1, limit / 2);
    }

    synchronized int limit() {
        return (int) limit;
    }

    synchronized int inFlight() {
        return inFlight;
    }

    /** One call's latency, while it held one of {@code inFlightThen} slots. */
    synchronized void sample(long latencyNanos, int inFlightThen) {
        if (++samplesSinceProbe >= PROBE_EVERY) {
            samplesSinceProbe = 0;
            lowestNanos = Long.MAX_VALUE;
        }
        lowestNanos = Math.min(lowestNanos, Math.max(1, latencyNanos));
        double queued = limit * (1 - (double) lowestNanos / Math.max(1, latencyNanos));
        double step = Math.max(1, Math.log10(limit));
        if (queued > 6 * step) {
            limit = Math.max(1, limit - step);
        } else if (queued < 3 * step && inFlightThen * 2 >= limit) {
            limit = Math.min(ceiling, limit + step);
        }
    }

    private void acquire(Runnable start) {
        synchronized (this) {
            if (inFlight >= (int) limit) {
                waiting.addLast(start);
                return;
            }
            inFlight++;
        }
        start.run();
    }

    private void release(long latencyNanos) {
        Runnable next;
        synchronized (this) {
            sample(latencyNanos, inFlight);
            inFlight--;
            if (waiting.isEmpty() || inFlight >= (int) limit) {
                return;
            }
            next = waiting.pollFirst();
            inFlight++;
        }
        next.run();
    }
}
