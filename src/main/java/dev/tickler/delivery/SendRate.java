package dev.tickler.delivery;

import java.util.Optional;
import java.util.function.LongSupplier;

/**
 * tickler.notify.rate-limit: at most so many sends per second from this instance, spaced evenly rather than in bursts
 * (the generic cell rate algorithm: every send reserves the next free turn), for providers with a published quota.
 * Without a limit every send's turn is now.
 */
final class SendRate {

    private final long intervalNanos;
    private final LongSupplier nanoTime;
    private long nextTurn;

    SendRate(Optional<Double> perSecond, LongSupplier nanoTime) {
        this.intervalNanos = perSecond.filter(rate -> rate > 0).map(rate -> (long) (1e9 / rate)).orElse(0L);
        this.nanoTime = nanoTime;
        this.nextTurn = nanoTime.getAsLong();
    }

    /** Reserves the next turn and answers how long to wait for it; 0 when it is now. */
    synchronized long reserveNanos() {
        if (intervalNanos == 0) {
            return 0;
        }
        long now = nanoTime.getAsLong();
        long turn = Math.max(now, nextTurn);
        nextTurn = turn + intervalNanos;
        return turn - now;
    }
}
