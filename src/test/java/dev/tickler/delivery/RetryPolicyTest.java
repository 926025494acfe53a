package dev.tickler.delivery;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;

import org.junit.jupiter.api.Test;


/** The retry gap: min(backoff-max, backoff-base × 2^(attempts − 1)) (docs/contract.md#delivery-to-the-notifier). */
class RetryPolicyTest {

    private static final Duration BASE = Duration.ofMillis(200);
    private static final Duration MAX = Duration.ofSeconds(2);

    @Test
    void firstRetryWaitsTheBase() {
        assertThat(policy(BASE, MAX).backoffAfter(1)).isEqualTo(BASE);
        assertThat(policy(Duration.ofSeconds(1), Duration.ofSeconds(60)).backoffAfter(1)).isEqualTo(Duration.ofSeconds(1));
    }

    @Test
    void eachFurtherAttemptDoublesTheGapUntilTheMax() {
        RetryPolicy policy = policy(BASE, MAX);

        assertThat(policy.backoffAfter(2)).isEqualTo(Duration.ofMillis(400));
        assertThat(policy.backoffAfter(3)).isEqualTo(Duration.ofMillis(800));
        assertThat(policy.backoffAfter(4)).isEqualTo(Duration.ofMillis(1600));
        assertThat(policy.backoffAfter(5)).isEqualTo(MAX);
        assertThat(policy.backoffAfter(6)).isEqualTo(MAX);
    }

    @Test
    void aGapThatReachesTheMaxExactlyIsTheMax() {
        RetryPolicy policy = policy(Duration.ofSeconds(1), Duration.ofSeconds(8));

        assertThat(policy.backoffAfter(4)).isEqualTo(Duration.ofSeconds(8));
        assertThat(policy.backoffAfter(5)).isEqualTo(Duration.ofSeconds(8));
    }

    @Test
    void theDefaultsGrowFromOneSecondToTheMinuteCeiling() {
        RetryPolicy policy = policy(Duration.ofSeconds(1), Duration.ofSeconds(60));

        assertThat(policy.backoffAfter(1)).isEqualTo(Duration.ofSeconds(1));
        assertThat(policy.backoffAfter(6)).isEqualTo(Duration.ofSeconds(32));
        assertThat(policy.backoffAfter(7)).isEqualTo(Duration.ofSeconds(60));
    }

    @Test
    void attemptCountsBelowOneWaitTheBase() {
        RetryPolicy policy = policy(BASE, MAX);

        assertThat(policy.backoffAfter(0)).isEqualTo(BASE);
        assertThat(policy.backoffAfter(-1)).isEqualTo(BASE);
    }

    @Test
    void largeAttemptNumbersStayAtTheMaxWithoutOverflowing() {
        RetryPolicy policy = policy(BASE, MAX);

        // a shift by 64 or more wraps around in a long; a multiplication past 2^63 nanoseconds throws
        for (int attempts : new int[] { 31, 32, 33, 63, 64, 65, 66, 1_000, Integer.MAX_VALUE }) {
            assertThat(policy.backoffAfter(attempts)).as("after %d attempts", attempts).isEqualTo(MAX);
        }
    }

    @Test
    void theGapNeverShrinksAsAttemptsGrow() {
        // a ceiling far above what thirty doublings reach, so only the growth of the gap itself is seen
        RetryPolicy policy = policy(Duration.ofSeconds(1), Duration.ofDays(365 * 1_000));

        Duration previous = Duration.ZERO;
        for (int attempts = 1; attempts <= 200; attempts++) {
            Duration gap = policy.backoffAfter(attempts);
            assertThat(gap).as("after %d attempts", attempts).isPositive().isGreaterThanOrEqualTo(previous);
            previous = gap;
        }
        assertThat(policy.backoffAfter(Integer.MAX_VALUE)).isPositive().isGreaterThanOrEqualTo(previous);
    }

    private static RetryPolicy policy(Duration base, Duration max) {
        return new RetryPolicy(base, max);
    }
}
