package dev.tickler.delivery;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.smallrye.mutiny.subscription.Cancellable;

/** The notifier's concurrency limit fed with latencies: how it grows, shrinks, stays in bounds and hands out slots. */
class AdaptiveConcurrencyTest {

    private static final long MS = 1_000_000;

    @Test
    void theLimitGrowsWhileLatencyStaysFlatAndCallsPressAgainstIt() {
        AdaptiveConcurrency concurrency = new AdaptiveConcurrency(256);

        for (int i = 0; i < 300; i++) {
            concurrency.sample(100 * MS, concurrency.limit());
        }

        assertThat(concurrency.limit()).isEqualTo(256);
    }

    @Test
    void theLimitDoesNotGrowWhileCallsLeaveItMostlyUnused() {
        AdaptiveConcurrency concurrency = new AdaptiveConcurrency(256);

        for (int i = 0; i < 300; i++) {
            concurrency.sample(100 * MS, 2);
        }

        assertThat(concurrency.limit()).isEqualTo(AdaptiveConcurrency.INITIAL_LIMIT);
    }

    @Test
    void theLimitShrinksWhenLatencyRisesAsCallsQueueAtTheProvider() {
        AdaptiveConcurrency concurrency = new AdaptiveConcurrency(256);
        for (int i = 0; i < 200; i++) {
            concurrency.sample(100 * MS, concurrency.limit());
        }
        int grown = concurrency.limit();

        for (int i = 0; i < 150; i++) {
            concurrency.sample(300 * MS, concurrency.limit());
        }

        assertThat(concurrency.limit()).isLessThan(grown / 2).isGreaterThanOrEqualTo(1);
    }

    @Test
    void underAPaceTheLimitKeepsWhatCarriesThePaceAtTheLatencySeenNow() {
        AdaptiveConcurrency concurrency = new AdaptiveConcurrency(256);
        concurrency.pace(200);
        for (int i = 0; i < 200; i++) {
            concurrency.sample(100 * MS, concurrency.limit());
        }

        for (int i = 0; i < 300; i++) {
            concurrency.sample(400 * MS, concurrency.limit());
        }

        double carriesThePace = 200 * 0.4 * AdaptiveConcurrency.PACE_HEADROOM;
        assertThat(concurrency.limit()).isBetween((int) carriesThePace - 2, (int) carriesThePace + 2);
    }

    @Test
    void aProviderThatGotSlowerForGoodIsMeasuredAgainAndTheLimitRecovers() {
        AdaptiveConcurrency concurrency = new AdaptiveConcurrency(256);
        for (int i = 0; i < 300; i++) {
            concurrency.sample(50 * MS, concurrency.limit());
        }

        // slower from now on: congested at first, then, with the lowest latency forgotten, the new normal
        for (int i = 0; i < AdaptiveConcurrency.PROBE_EVERY * 2; i++) {
            concurrency.sample(200 * MS, concurrency.limit());
        }

        assertThat(concurrency.limit()).isGreaterThan(100);
    }

    @Test
    void callsBeyondTheLimitWaitAndStartAsSlotsFree() {
        AdaptiveConcurrency concurrency = new AdaptiveConcurrency(2);
        List<AdaptiveConcurrency.Slot> granted = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            concurrency.acquire().subscribe().with(granted::add);
        }

        assertThat(granted).hasSize(2);
        assertThat(concurrency.inFlight()).isEqualTo(2);
        granted.get(0).release(100 * MS);
        assertThat(granted).hasSize(3);
        assertThat(concurrency.inFlight()).isEqualTo(2);
        granted.get(1).releaseUnmeasured();
        granted.get(2).release(100 * MS);
        granted.get(3).release(100 * MS);

        assertThat(granted).hasSize(4);
        assertThat(concurrency.inFlight()).isZero();
    }

    @Test
    void aSlotGivenBackTwiceIsFreedOnce() {
        AdaptiveConcurrency concurrency = new AdaptiveConcurrency(2);
        List<AdaptiveConcurrency.Slot> granted = new ArrayList<>();
        concurrency.acquire().subscribe().with(granted::add);
        concurrency.acquire().subscribe().with(granted::add);

        granted.get(0).release(100 * MS);
        granted.get(0).releaseUnmeasured();

        assertThat(concurrency.inFlight()).isEqualTo(1);
    }

    @Test
    void aCallerThatStoppedWaitingDoesNotKeepTheSlot() {
        AdaptiveConcurrency concurrency = new AdaptiveConcurrency(1);
        List<AdaptiveConcurrency.Slot> granted = new ArrayList<>();
        concurrency.acquire().subscribe().with(granted::add);
        Cancellable gaveUp = concurrency.acquire().subscribe().with(granted::add);

        gaveUp.cancel();
        granted.get(0).release(100 * MS);

        assertThat(granted).hasSize(1);
        assertThat(concurrency.inFlight()).isZero();
    }

    @Test
    void aLimitThatGrewLetsAsManyWaitingCallsStartAsItNowAllows() {
        AdaptiveConcurrency concurrency = new AdaptiveConcurrency(64);
        List<AdaptiveConcurrency.Slot> granted = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            concurrency.acquire().subscribe().with(granted::add);
        }
        assertThat(concurrency.inFlight()).isEqualTo(AdaptiveConcurrency.INITIAL_LIMIT);
        for (int i = 0; i < 10; i++) {
            concurrency.sample(100 * MS, concurrency.limit());
        }
        int grown = concurrency.limit();

        granted.get(0).release(100 * MS);

        assertThat(grown).isGreaterThan(AdaptiveConcurrency.INITIAL_LIMIT + 5);
        assertThat(concurrency.inFlight()).isEqualTo(Math.min(39, concurrency.limit()));
    }

    @Test
    void oneSlowAnswerOnlyNudgesTheLimit() {
        AdaptiveConcurrency concurrency = new AdaptiveConcurrency(256);
        for (int i = 0; i < 300; i++) {
            concurrency.sample(100 * MS, concurrency.limit());
        }

        concurrency.sample(2_000 * MS, concurrency.limit());

        assertThat(concurrency.limit()).isGreaterThan(250);
    }

    @Test
    void theCeilingIsNeverExceeded() {
        AdaptiveConcurrency concurrency = new AdaptiveConcurrency(10);

        for (int i = 0; i < 1_000; i++) {
            concurrency.sample(MS, concurrency.limit());
        }

        assertThat(concurrency.limit()).isEqualTo(10);
    }
}
