package dev.tickler.delivery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.PriorityQueue;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

/**
 * The send pace on a clock and timers the test moves: sends leave evenly, never more than the limit in a second
 * beyond the burst tolerance, a late timer does not turn into a burst, 429s cut the pace to what the provider took
 * (counted when the sends left) at most once in its Retry-After, and queued sends grow it, slowly near the quota.
 */
class SendRateTest {

    private static final long SECOND = 1_000_000_000L;
    private static final long MS = 1_000_000L;
    private static final int TOLERATED_BURST = (int) (SendRate.BURST_TOLERANCE_NANOS / MS) + 1;

    private final AtomicLong now = new AtomicLong(SECOND);
    private final PriorityQueue<Scheduled> timers = new PriorityQueue<>();
    private final List<Long> wentAt = new ArrayList<>();

    private record Scheduled(long at, Runnable action) implements Comparable<Scheduled> {
        @Override
        public int compareTo(Scheduled other) {
            return Long.compare(at, other.at);
        }
    }

    @Test
    void withoutALimitEveryTurnComesAtOnce() {
        SendRate rate = pace(Optional.empty());

        ask(rate, 1_000);

        assertThat(wentAt).hasSize(1_000).containsOnly(SECOND);
        assertThat(timers).isEmpty();
    }

    @Test
    void sendsAskedForTogetherLeaveOneIntervalApartAfterTheToleratedBurst() {
        SendRate rate = pace(Optional.of(1_000.0));

        ask(rate, 200);
        assertThat(wentAt).hasSize(TOLERATED_BURST);
        advance(200 * MS, MS);

        assertThat(wentAt).hasSize(200);
        for (int i = TOLERATED_BURST + 1; i < 200; i++) {
            assertThat(wentAt.get(i) - wentAt.get(i - 1)).isBetween(0L, 2 * MS);
        }
        assertThat(wentAt.get(199) - wentAt.get(0)).isCloseTo(200 * MS - SendRate.BURST_TOLERANCE_NANOS, within(2 * MS));
    }

    @Test
    void aSecondNeverHoldsMoreThanTheLimitHoweverTheSendsArrive() {
        SendRate rate = pace(Optional.of(1_000.0));

        ask(rate, 5_000);
        advance(6 * SECOND, MS);

        assertThat(wentAt).hasSize(5_000);
        assertThat(mostInOneSecond()).isLessThanOrEqualTo(1_000);
    }

    @Test
    void aTimerThatFiresLateLetsTheSendsItHeldBackCatchUp() {
        SendRate rate = pace(Optional.of(1_000.0));
        ask(rate, 2_000);
        int before = wentAt.size();

        for (int i = 0; i < 10; i++) {
            now.addAndGet(40 * MS);
            fireDueTimers();
        }

        assertThat(wentAt.size() - before).isCloseTo(400, within(TOLERATED_BURST));
    }

    @Test
    void idleTimeIsNotSavedUpForABurst() {
        SendRate rate = pace(Optional.of(10.0));
        ask(rate, 1);

        now.addAndGet(60 * SECOND);
        ask(rate, 5);

        assertThat(wentAt).hasSize(2);
    }

    @Test
    void a429CutsThePaceBelowWhatTheProviderTookInTheLastSecondCountingTheSendsStillOut() {
        SendRate rate = pace(Optional.empty());
        // none of these has answered yet: they count from the moment they left
        departEvenly(rate, 2_000, 2);

        refuse(rate);

        assertThat(rate.perSecond()).isCloseTo(SendRate.BACK_OFF * 1_000, within(10.0));
    }

    @Test
    void sendsTheProviderRefusedAreNotCountedAsTaken() {
        SendRate rate = pace(Optional.empty());
        departEvenly(rate, 3_000, 1);
        refuse(rate);
        assertThat(rate.perSecond()).isCloseTo(SendRate.BACK_OFF * 3_000, within(30.0));

        // the next second: 2,000 leave and every other one is refused, within the cut's second
        for (int i = 0; i < 1_000; i++) {
            now.addAndGet(SECOND / 1_000);
            rate.departed();
            refuse(rate);
        }
        now.addAndGet(MS);
        refuse(rate);

        assertThat(rate.perSecond()).isCloseTo(SendRate.BACK_OFF * 1_000, within(10.0));
    }

    @Test
    void aRetryAfterHoldsTheNextCutForThatLongButNoLongerThanAFewSeconds() {
        SendRate rate = pace(Optional.empty());
        departEvenly(rate, 1_000, 1);
        refuse(rate, Duration.ofSeconds(3));
        double cut = rate.perSecond();
        assertThat(cut).isCloseTo(SendRate.BACK_OFF * 1_000, within(10.0));

        departEvenly(rate, 500, 1);
        refuse(rate, Duration.ofSeconds(3));
        assertThat(rate.perSecond()).isEqualTo(cut);

        departEvenly(rate, 1_000, 2);
        refuse(rate, Duration.ofHours(1));
        assertThat(rate.perSecond()).isCloseTo(SendRate.BACK_OFF * 500, within(10.0));
        double cutAgain = rate.perSecond();

        departEvenly(rate, 1_000, 4);
        refuse(rate);
        assertThat(rate.perSecond()).isEqualTo(cutAgain);
        departEvenly(rate, 200, 1);
        refuse(rate);
        assertThat(rate.perSecond()).isCloseTo(SendRate.BACK_OFF * 200, within(5.0));
    }

    @Test
    void aBurstOf429sCutsOnceASecond() {
        SendRate rate = pace(Optional.empty());
        departEvenly(rate, 1_000, 1);

        for (int i = 0; i < 100; i++) {
            refuse(rate);
        }
        assertThat(rate.perSecond()).isCloseTo(SendRate.BACK_OFF * 1_000, within(10.0));

        departEvenly(rate, 800, 1);
        refuse(rate);
        assertThat(rate.perSecond()).isCloseTo(SendRate.BACK_OFF * 800, within(10.0));
    }

    @Test
    void a429WhileOnlyATrickleIsAcceptedTeachesNothing() {
        SendRate rate = pace(Optional.empty());
        departEvenly(rate, SendRate.LEARNING_FLOOR - 1, 1);

        refuse(rate);

        assertThat(rate.perSecond()).isInfinite();
    }

    @Test
    void thePaceGetsBackNearWhereTheProviderRefusedQuicklyThenFeelsForItSlowlyButNeverPastTheCeiling() {
        SendRate rate = pace(Optional.of(1_000.0));
        departEvenly(rate, 500, 1);
        refuse(rate);
        assertThat(rate.perSecond()).isCloseTo(SendRate.BACK_OFF * 500, within(5.0));
        ask(rate, 100_000);

        // 5 % a second up to 99 % of the 500 a second the provider refused at
        advance(SECOND, MS);
        assertThat(rate.perSecond()).isBetween(490.0, 500.0);
        // then 1 % a second through the quota's neighbourhood
        advance(5 * SECOND, MS);
        assertThat(rate.perSecond()).isBetween(510.0, 530.0);

        advance(60 * SECOND, MS);
        assertThat(rate.perSecond()).isEqualTo(1_000);
    }

    @Test
    void a429WhileTheProviderTookLessLowersThePaceButNotWhereTheQuotaIsFeltFor() {
        SendRate rate = pace(Optional.empty());
        departEvenly(rate, 1_000, 1);
        refuse(rate);
        ask(rate, 100_000);
        advance(2 * SECOND, MS);

        // a stall here bunched the sends up: the provider refused one while it took only 800 in the second
        departEvenly(rate, 800, 1);
        refuse(rate);
        assertThat(rate.perSecond()).isCloseTo(SendRate.BACK_OFF * 800, within(10.0));

        // 5 % a second all the way: 1 % a second starts only near the 1,000 the provider took when it refused
        advance(4 * SECOND, MS);
        assertThat(rate.perSecond()).isGreaterThan(SendRate.BACK_OFF * 800 * Math.exp(4 * 0.045));
    }

    @Test
    void thePaceDoesNotGrowWhileNothingWaitsForIt() {
        SendRate rate = pace(Optional.empty());
        departEvenly(rate, 500, 1);
        refuse(rate);
        double cut = rate.perSecond();

        for (int i = 0; i < 600; i++) {
            now.addAndGet(SECOND / 10);
            ask(rate, 1);
        }

        assertThat(rate.perSecond()).isEqualTo(cut);
        assertThat(wentAt).hasSize(600);
    }

    private SendRate pace(Optional<Double> ceiling) {
        return new SendRate(ceiling, now::get, (delayNanos, action) -> timers.add(new Scheduled(now.get() + delayNanos,
                action)));
    }

    private void ask(SendRate rate, int sends) {
        for (int i = 0; i < sends; i++) {
            rate.turn().subscribe().with(ignored -> wentAt.add(now.get()));
        }
    }

    /** Moves the clock in steps, firing the timers that came due, as an event loop would. */
    private void advance(long nanos, long step) {
        long end = now.get() + nanos;
        while (now.get() < end) {
            now.addAndGet(step);
            fireDueTimers();
        }
    }

    private void fireDueTimers() {
        while (!timers.isEmpty() && timers.peek().at() <= now.get()) {
            timers.poll().action().run();
        }
    }

    private int mostInOneSecond() {
        int most = 0;
        int first = 0;
        for (int last = 0; last < wentAt.size(); last++) {
            while (wentAt.get(last) - wentAt.get(first) >= SECOND) {
                first++;
            }
            most = Math.max(most, last - first + 1);
        }
        return most;
    }

    /** A send that leaves now and is refused with a 429 without Retry-After. */
    private void refuse(SendRate rate) {
        refuse(rate, null);
    }

    private void refuse(SendRate rate, Duration retryAfter) {
        rate.departed();
        rate.rateLimited(now.get(), retryAfter);
    }

    /** {@code count} sends the provider took, spread evenly over the next {@code seconds}. */
    private void departEvenly(SendRate rate, int count, int seconds) {
        long step = seconds * SECOND / count;
        for (int i = 0; i < count; i++) {
            now.addAndGet(step);
            rate.departed();
        }
    }
}
