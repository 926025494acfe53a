package dev.tickler.callback;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;

/** The pauses between a callback's tries: 1 s, doubling, capped by tickler.callbacks.max-backoff. */
class BackoffTest {

    @Test
    void pausesStartAtOneSecondAndDoubleUpToTheCeiling() {
        Duration ceiling = Duration.ofMinutes(10);

        assertThat(IntStream.rangeClosed(1, 12).mapToObj(tries -> Backoff.after(tries, ceiling).toSeconds()))
                .containsExactly(1L, 2L, 4L, 8L, 16L, 32L, 64L, 128L, 256L, 512L, 600L, 600L);
        assertThat(Backoff.after(1_000, ceiling)).isEqualTo(ceiling);
        assertThat(Backoff.after(3, Duration.ofSeconds(3))).isEqualTo(Duration.ofSeconds(3));
    }
}
