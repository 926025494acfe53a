package dev.tickler.emulator;

import java.time.Duration;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionFactory;

/** Polling with a deadline, for outcomes that arrive asynchronously. */
final class Eventually {

    private Eventually() {
    }

    static ConditionFactory eventually() {
        return Awaitility.await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(20));
    }
}
