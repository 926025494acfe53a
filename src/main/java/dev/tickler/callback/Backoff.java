package dev.tickler.callback;

import java.time.Duration;

/** The pause after a failed try of a callback: 1 s after the first, doubling with each, never longer than the ceiling. */
final class Backoff {

    static final Duration FIRST = Duration.ofSeconds(1);

    private Backoff() {
    }

    /** The pause after the {@code tries}-th failed try (from 1). */
    static Duration after(int tries, Duration ceiling) {
        int doublings = Math.max(0, Math.min(tries - 1, 40));
        Duration pause = FIRST.multipliedBy(1L << doublings);
        return pause.compareTo(ceiling) > 0 ? ceiling : pause;
    }
}
