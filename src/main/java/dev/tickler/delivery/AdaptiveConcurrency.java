package dev.tickler.delivery;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.function.Supplier;

import io.smallrye.mutiny.Uni;

/**
 * Bounds the calls in flight toward the notifier (SPEC §5). The limit halves on every 429 and grows back by about
 * one per limit's worth of successes (additive increase, multiplicative decrease), never above the ceiling.
 */
final class AdaptiveConcurrency {

    private final int ceiling;
    private final Deque<Runnable> waiting = new ArrayDeque<>();
    private double limit;
    private int inFlight;

    AdaptiveConcurrency(int ceiling) {
        this.ceiling = ceiling;
        this.limit = ceiling;
    }

    /** Runs the call once a slot is free; the slot is held until the call's Uni ends. */
    <T> Uni<T> run(Supplier<Uni<T>> call) {
        return Uni.createFrom().emitter(emitter -> acquire(() -> Uni.createFrom().<T>deferred(call::get)
                .onTermination().invoke(this::release)
                .subscribe().with(emitter::complete, emitter::fail)));
    }

    synchronized void rateLimited() {
        limit = Math.max(1, limit / 2);
    }

    synchronized void succeeded() {
        limit = Math.min(ceiling, limit + 1 / limit);
    }

    synchronized int limit() {
        return (int) limit;
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

    private void release() {
        Runnable next;
        synchronized (this) {
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
