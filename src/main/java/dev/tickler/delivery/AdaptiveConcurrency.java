package dev.tickler.delivery;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.subscription.UniEmitter;

/**
 * Bounds the calls in flight toward the notifier (docs/contract.md#delivery-to-the-notifier) and finds the bound by
 * itself, as TCP Vegas finds a window: it compares the calls' latency with the lowest latency seen lately (the provider
 * unloaded). While they stay close, calls are not queueing at the provider and the limit grows; once the estimated
 * queue ({@code limit × (1 − lowest / smoothed)}) passes a few calls, it shrinks. The limit never leaves [1, ceiling],
 * and it only grows while calls actually press against it, so an idle instance does not inflate it. The lowest latency
 * is forgotten now and then, so that a provider that got slower for good is measured again instead of looking congested
 * forever.
 *
 * <p>While a pace is in force ({@link SendRate}), the pace already bounds what the provider gets, and the limit never
 * falls below what carries that pace at the latency seen now (Little's law, with {@value #PACE_HEADROOM}× headroom for
 * the calls waiting for their turn): a provider, or this instance, that got slower must not cut the sends below
 * the pace.
 *
 * <p>Only answers the provider worked for are samples: a 429 or a refused connection comes back at once, and
 * taking it for the provider's unloaded latency would make every real answer look like a queue.
 */
final class AdaptiveConcurrency {

    /** Where the limit starts: enough for a fast provider at once, little enough to learn a slow one cheaply. */
    static final int INITIAL_LIMIT = 16;
    /** Samples between two forgettings of the lowest latency. */
    static final int PROBE_EVERY = 2_000;
    /** Weight of the newest latency in the smoothed one: one slow answer only nudges the limit. */
    static final double SMOOTHING = 0.2;
    static final double PACE_HEADROOM = 1.5;

    private final int ceiling;
    private final Deque<Runnable> waiting = new ArrayDeque<>();
    private double limit;
    private int inFlight;
    private long lowestNanos = Long.MAX_VALUE;
    private double smoothedNanos;
    private long samplesSinceProbe;
    private double pacePerSecond = Double.POSITIVE_INFINITY;

    AdaptiveConcurrency(int ceiling) {
        this.ceiling = ceiling;
        this.limit = Math.min(ceiling, INITIAL_LIMIT);
    }

    /** A slot, once the limit lets one more call start; it must be given back with {@link Slot#release}. */
    Uni<Slot> acquire() {
        return Uni.createFrom().emitter(emitter -> {
            synchronized (this) {
                if (inFlight >= (int) limit) {
                    Waiter waiter = new Waiter(emitter);
                    emitter.onTermination(waiter::stopWaiting);
                    waiting.addLast(waiter);
                    return;
                }
                inFlight++;
            }
            emitter.complete(new Slot());
        });
    }

    /** A caller waiting for a slot; one that stopped waiting does not keep the slot it was waiting for. */
    private final class Waiter implements Runnable {

        private final UniEmitter<? super Slot> emitter;
        private boolean stopped;

        Waiter(UniEmitter<? super Slot> emitter) {
            this.emitter = emitter;
        }

        void stopWaiting() {
            synchronized (AdaptiveConcurrency.this) {
                stopped = true;
            }
        }

        @Override
        public void run() {
            Slot slot = new Slot();
            boolean gone;
            synchronized (AdaptiveConcurrency.this) {
                gone = stopped;
                stopped = true;
            }
            if (gone) {
                slot.releaseUnmeasured();
            } else {
                emitter.complete(slot);
            }
        }
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
        long latency = Math.max(1, latencyNanos);
        lowestNanos = Math.min(lowestNanos, latency);
        smoothedNanos = smoothedNanos == 0 ? latency : smoothedNanos + SMOOTHING * (latency - smoothedNanos);
        double queued = limit * (1 - lowestNanos / smoothedNanos);
        double step = Math.max(1, Math.log10(limit));
        if (queued > 6 * step) {
            limit = Math.max(1, limit - step);
        } else if (queued < 3 * step && inFlightThen * 2 >= limit) {
            limit = Math.min(ceiling, limit + step);
        }
        if (pacePerSecond != Double.POSITIVE_INFINITY) {
            limit = Math.max(limit, Math.min(ceiling, pacePerSecond * smoothedNanos / 1e9 * PACE_HEADROOM));
        }
    }

    /** The pace sends are held to now; infinite while there is none. */
    synchronized void pace(double perSecond) {
        this.pacePerSecond = perSecond;
    }

    /** Frees a slot, and starts as many waiting calls as the limit, perhaps just raised, lets through. */
    private void release(long latencyNanos) {
        List<Runnable> starting = new ArrayList<>();
        synchronized (this) {
            if (latencyNanos >= 0) {
                sample(latencyNanos, inFlight);
            }
            inFlight--;
            while (!waiting.isEmpty() && inFlight < (int) limit) {
                starting.add(waiting.pollFirst());
                inFlight++;
            }
        }
        starting.forEach(Runnable::run);
    }

    /** One call's right to run; giving it back twice frees it once. */
    final class Slot {

        private boolean released;

        /** Gives the slot back with the latency of an answer the provider worked for. */
        void release(long latencyNanos) {
            giveBack(latencyNanos);
        }

        /** Gives the slot back with nothing learned: the call failed fast, was cancelled, or never left. */
        void releaseUnmeasured() {
            giveBack(-1);
        }

        private void giveBack(long latencyNanos) {
            synchronized (AdaptiveConcurrency.this) {
                if (released) {
                    return;
                }
                released = true;
            }
            AdaptiveConcurrency.this.release(latencyNanos);
        }
    }
}
