package dev.tickler.emulator;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;

/** Faults injected into publish calls: errors for the next calls, in the order they were asked for, and a latency. */
final class PublishFaults {

    private static final class PendingErrors {
        final ApiError error;
        int remaining;

        PendingErrors(ApiError error, int remaining) {
            this.error = error;
            this.remaining = remaining;
        }
    }

    private final Deque<PendingErrors> pending = new ArrayDeque<>();
    private Duration latency = Duration.ZERO;

    synchronized void failNext(int count, ApiError error) {
        if (count < 0) {
            throw new IllegalArgumentException("count must not be negative");
        }
        if (count > 0) {
            pending.addLast(new PendingErrors(error, count));
        }
    }

    /** The error the next publish call must answer, or {@code null} to handle it normally. */
    synchronized ApiError takeNextError() {
        PendingErrors next = pending.peekFirst();
        if (next == null) {
            return null;
        }
        if (--next.remaining == 0) {
            pending.removeFirst();
        }
        return next.error;
    }

    synchronized void latency(Duration latency) {
        if (latency.isNegative()) {
            throw new IllegalArgumentException("latency must not be negative");
        }
        this.latency = latency;
    }

    synchronized Duration latency() {
        return latency;
    }

    synchronized void clear() {
        pending.clear();
        latency = Duration.ZERO;
    }
}
