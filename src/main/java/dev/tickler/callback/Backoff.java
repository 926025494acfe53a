package dev.tickler.callback;

import java.time.Duration;

import dev.tickler.delivery.RetryPolicy;

/**
 * The pause after a failed try of a callback: 1 s after the first, doubling with each, never longer than the ceiling;
 * the notifier's retry rule with a fixed base.
 */
final class Backoff {

    private static final Duration FIRST = Duration.ofSeconds(1);

    private Backoff() {
    }

    /** The pause after the {@code tries}-th failed try (from 1). */
    static Duration after(int tries, Duration ceiling) {
        return new RetryPolicy(FIRST, ceiling).backoffAfter(tries);
    }
}
