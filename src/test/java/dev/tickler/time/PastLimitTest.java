package dev.tickler.time;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;

import org.junit.jupiter.api.Test;

/** tickler.api.max-past at its edges, on a pinned clock: the bound itself is allowed, a microsecond more is not. */
class PastLimitTest {

    private static final Instant NOW = Instant.parse("2031-05-17T10:15:30.123456Z");
    private final PastLimit limit = new PastLimit(Clock.fixed(NOW, ZoneOffset.UTC), Duration.ofHours(24));

    @Test
    void aFireAtExactlyAtTheBoundIsAllowed() {
        assertThat(limit.problem(NOW.minus(Duration.ofHours(24)))).isEmpty();
    }

    @Test
    void aFireAtBeyondTheBoundIsRefusedSayingHowFarBackItLies() {
        assertThat(limit.problem(NOW.minus(Duration.ofHours(24)).minusNanos(1_000))).isPresent();
        assertThat(limit.problem(NOW.minus(Duration.ofHours(24)).minusSeconds(1))).hasValue("must lie at most PT24H in"
                + " the past (tickler.api.max-past), as a past fire_at is sent at once; this one lies 86401 s back");
        assertThat(limit.problem(NOW.minus(Duration.ofDays(365)))).hasValueSatisfying(problem ->
                assertThat(problem).endsWith("this one lies 365 days back"));
    }

    @Test
    void theFutureAndTheRecentPastAreAllowed() {
        assertThat(limit.problem(NOW)).isEmpty();
        assertThat(limit.problem(NOW.minus(Duration.ofHours(20)))).isEmpty();
        assertThat(limit.problem(Instant.parse("9999-12-30T23:59:59Z"))).isEmpty();
    }

    @Test
    void theEarliestSupportedInstantIsRefused() {
        assertThat(limit.problem(ReminderTiming.EARLIEST)).isPresent();
        assertThat(limit.problem(Instant.MIN)).isPresent();
    }
}
