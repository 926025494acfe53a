package dev.tickler.delivery;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

/** tickler.notify.rate-limit on a clock the test moves: sends are spaced evenly, never bunched. */
class SendRateTest {

    private final AtomicLong now = new AtomicLong(1_000_000_000L);

    @Test
    void withoutALimitEverySendGoesNow() {
        SendRate rate = new SendRate(Optional.empty(), now::get);

        for (int i = 0; i < 1_000; i++) {
            assertThat(rate.reserveNanos()).isZero();
        }
    }

    @Test
    void sendsAskedForTogetherAreSpacedOneIntervalApart() {
        SendRate rate = new SendRate(Optional.of(1_000.0), now::get);

        assertThat(rate.reserveNanos()).isZero();
        assertThat(rate.reserveNanos()).isEqualTo(1_000_000L);
        assertThat(rate.reserveNanos()).isEqualTo(2_000_000L);
        assertThat(rate.reserveNanos()).isEqualTo(3_000_000L);
    }

    @Test
    void aSecondHoldsAtMostTheLimitHoweverTheSendsArrive() {
        SendRate rate = new SendRate(Optional.of(1_000.0), now::get);
        int withinTheSecond = 0;
        for (int i = 0; i < 5_000; i++) {
            if (rate.reserveNanos() < 1_000_000_000L) {
                withinTheSecond++;
            }
        }

        assertThat(withinTheSecond).isEqualTo(1_000);
    }

    @Test
    void idleTimeIsNotSavedUpForABurst() {
        SendRate rate = new SendRate(Optional.of(10.0), now::get);
        rate.reserveNanos();

        now.addAndGet(60_000_000_000L);

        assertThat(rate.reserveNanos()).isZero();
        assertThat(rate.reserveNanos()).isEqualTo(100_000_000L);
    }
}
