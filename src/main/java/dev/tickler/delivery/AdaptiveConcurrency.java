package dev.tickler.delivery;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.subscription.UniEmitter;

/**
 * Bounds the calls in flight toward the notifier (docs/contract.md#delivery-to-the-notifier) and finds the bound by
 * itself from the provider's latency, once per round (the answers of the calls that were in flight when the round
 * began, about one latency's worth). A round's latency is compared with the lowest seen lately (the provider
 * unloaded): at most a share of {@value #GROWTH_BAND} above it, calls are not queueing at the provider and, while
 * they press against the limit, it grows (doubling until the first cut, then by {@value #CAUTIOUS_GROWTH} of itself);
 * more than a share of {@value #TOLERANCE} above it, the provider is queueing them and the limit is cut in
 * proportion, at most by half (and not again in the next round, whose calls were sent before the cut). Shares of a
 * lowest latency under a millisecond are smaller than an event loop's ordinary jitter, so a round also grows within
 * half of {@link #ORDINARY_JITTER_NANOS} above the lowest and cuts only beyond all of it. The limit never
 * leaves [1, ceiling]. The lowest latency is forgotten now and then, so that a provider that got slower for good is
 * measured again instead of looking congested forever.
 *
 * <p>Latency is the weakest of the provider's signals: it also holds this instance's own delays. Each answer comes with
 * how late this instance ran its own timers while the call was out ({@link NotifierThrottle}), and twice that (the
 * call written late, its answer read late) is taken off before the round is judged. A round in which this instance ran
 * later than {@value #TRUSTED_LOCAL_DELAY} of the lowest latency (and than an event loop's ordinary jitter) cuts
 * nothing: a push flood on shared cores or a collection pause slows every answer, and fewer calls would not make it
 * faster, only the drain longer.
 *
 * <p>While a pace is in force ({@link SendRate}) the provider has said in 429s what it takes, which weighs more than
 * any latency: the limit never falls below what carries that pace at the latency seen now (Little's law, with
 * {@value #PACE_HEADROOM}× headroom for the calls waiting for their turn).
 *
 * <p>Only answers the provider worked for are samples: a 429 or a refused connection comes back at once, and
 * taking it for the provider's unloaded latency would make every real answer look like a queue.
 */
final class AdaptiveConcurrency {

    /** Where the limit starts: enough for a fast provider at once, little enough to learn a slow one cheaply. */
    static final int INITIAL_LIMIT = 16;
    /** Samples between two forgettings of the lowest latency. */
    static final int PROBE_EVERY = 2_000;
    /**
     * How far above the lowest a round's latency must be before it reads as the provider's queue (Netflix's gradient
     * limit tolerates the same 50 %): a provider working on more calls than it can gets them at most half as slowly.
     */
    static final double TOLERANCE = 0.5;
    /** A round within this share above the lowest latency leaves room to grow; between it and the tolerance, hold. */
    static final double GROWTH_BAND = 0.25;
    /** The most one round can cut. */
    static final double LARGEST_CUT = 0.5;
    /** Growth a round once the provider has queued calls: probing again, not doubling. */
    static final double CAUTIOUS_GROWTH = 0.125;
    /** This instance's own delay, as a share of the lowest latency, beyond which a round's latency cuts nothing. */
    static final double TRUSTED_LOCAL_DELAY = 0.1;
    /**
     * A timer this late is an event loop's ordinary jitter: it never stops a fast provider's queue from being seen. A
     * round's latency no more than this above the lowest is not read as the provider's queue, however small the lowest:
     * against a provider that answers in a fraction of a millisecond, an answer read a millisecond late triples it.
     */
    static final long ORDINARY_JITTER_NANOS = 2_000_000;
    /** An answer's own delay here: its call written late and its answer read late, each by about the timers' delay. */
    static final int LOCAL_DELAYS_PER_CALL = 2;
    static final double PACE_HEADROOM = 1.5;
    /** Weight of the newest latency in the smoothed one that sizes the pace's floor. */
    static final double SMOOTHING = 0.2;

    private final int ceiling;
    private final Deque<Runnable> waiting = new ArrayDeque<>();
    private double limit;
    private int inFlight;
    private long lowestNanos = Long.MAX_VALUE;
    private double smoothedNanos;
    private long samplesSinceProbe;
    private double pacePerSecond = Double.POSITIVE_INFINITY;
    /** Whether the provider has queued calls yet: until then the limit doubles a round. */
    private boolean queuedOnce;
    /** Whether the last round cut the limit. */
    private boolean justCut;
    private final Round round = new Round();

    /** The answers of one round: their latencies less this instance's delays, the most in flight, the worst delay. */
    private static final class Round {
        int length;
        int samples;
        double netNanos;
        long localDelayNanos;
        int mostInFlight;

        void begin(int inFlightNow) {
            length = Math.max(1, inFlightNow);
            samples = 0;
            netNanos = 0;
            localDelayNanos = 0;
            mostInFlight = 0;
        }
    }

    AdaptiveConcurrency(int ceiling) {
        this.ceiling = ceiling;
        this.limit = Math.min(ceiling, INITIAL_LIMIT);
        round.begin((int) limit);
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

    /**
     * One call's latency, while it held one of {@code inFlightThen} slots and this instance ran its own timers up to
     * {@code localDelayNanos} late.
     */
    synchronized void sample(long latencyNanos, long localDelayNanos, int inFlightThen) {
        if (++samplesSinceProbe >= PROBE_EVERY) {
            samplesSinceProbe = 0;
            lowestNanos = Long.MAX_VALUE;
        }
        long latency = Math.max(1, latencyNanos);
        lowestNanos = Math.min(lowestNanos, latency);
        smoothedNanos = smoothedNanos == 0 ? latency : smoothedNanos + SMOOTHING * (latency - smoothedNanos);
        long localDelay = Math.max(0, localDelayNanos);
        round.samples++;
        round.netNanos += Math.max(1, latency - LOCAL_DELAYS_PER_CALL * localDelay);
        round.localDelayNanos = Math.max(round.localDelayNanos, localDelay);
        round.mostInFlight = Math.max(round.mostInFlight, inFlightThen);
        if (round.samples >= round.length) {
            judge();
            round.begin(inFlightThen);
        }
        if (pacePerSecond != Double.POSITIVE_INFINITY) {
            limit = Math.max(limit, Math.min(ceiling, pacePerSecond * smoothedNanos / 1e9 * PACE_HEADROOM));
        }
    }

    /** The round just ended: grow, hold or cut. */
    private void judge() {
        double net = round.netNanos / round.samples;
        double ratio = net / lowestNanos;
        double beyondLowest = net - lowestNanos;
        boolean afterACut = justCut;
        justCut = false;
        if (ratio > 1 + TOLERANCE && beyondLowest > ORDINARY_JITTER_NANOS) {
            // the round after a cut answers calls sent before it, still queued behind the calls the cut took away
            long trustedDelay = Math.max((long) (TRUSTED_LOCAL_DELAY * lowestNanos), ORDINARY_JITTER_NANOS);
            boolean trusted = round.localDelayNanos <= trustedDelay;
            if (trusted && !afterACut) {
                queuedOnce = true;
                justCut = true;
                limit = Math.max(1, limit * Math.max(LARGEST_CUT, (1 + GROWTH_BAND) / ratio));
            }
        } else if ((ratio <= 1 + GROWTH_BAND || beyondLowest <= ORDINARY_JITTER_NANOS / 2)
                && round.mostInFlight * 2 >= (int) limit) {
            limit = Math.min(ceiling, limit + Math.max(1, limit * (queuedOnce ? CAUTIOUS_GROWTH : 1)));
        }
    }

    /** The pace sends are held to now; infinite while there is none. */
    synchronized void pace(double perSecond) {
        this.pacePerSecond = perSecond;
    }

    /** Frees a slot, and starts as many waiting calls as the limit, perhaps just raised, lets through. */
    private void release(long latencyNanos, long localDelayNanos) {
        List<Runnable> starting = new ArrayList<>();
        synchronized (this) {
            if (latencyNanos >= 0) {
                sample(latencyNanos, localDelayNanos, inFlight);
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

        /**
         * Gives the slot back with the latency of an answer the provider worked for, and how late this instance ran
         * its own timers meanwhile.
         */
        void release(long latencyNanos, long localDelayNanos) {
            giveBack(latencyNanos, localDelayNanos);
        }

        /** Gives the slot back with nothing learned: the call failed fast, was cancelled, or never left. */
        void releaseUnmeasured() {
            giveBack(-1, 0);
        }

        private void giveBack(long latencyNanos, long localDelayNanos) {
            synchronized (AdaptiveConcurrency.this) {
                if (released) {
                    return;
                }
                released = true;
            }
            AdaptiveConcurrency.this.release(latencyNanos, localDelayNanos);
        }
    }
}
