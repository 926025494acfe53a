package dev.tickler.delivery;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.smallrye.mutiny.subscription.Cancellable;

/**
 * The notifier's concurrency limit fed with latencies and this instance's own delays: how it grows, what cuts it and
 * what does not, how it stays in bounds and hands out slots.
 */
class AdaptiveConcurrencyTest {

    private static final long MS = 1_000_000;

    @Test
    void theLimitGrowsWhileLatencyStaysFlatAndCallsPressAgainstIt() {
        AdaptiveConcurrency concurrency = new AdaptiveConcurrency(256);

        answer(concurrency, 300, 100 * MS, 0);

        assertThat(concurrency.limit()).isEqualTo(256);
    }

    @Test
    void theLimitDoublesARoundUntilTheProviderFirstQueues() {
        AdaptiveConcurrency concurrency = new AdaptiveConcurrency(256);

        // one round is the answers of the calls that were out when it began
        answer(concurrency, AdaptiveConcurrency.INITIAL_LIMIT, 100 * MS, 0);
        assertThat(concurrency.limit()).isEqualTo(2 * AdaptiveConcurrency.INITIAL_LIMIT);
        answer(concurrency, AdaptiveConcurrency.INITIAL_LIMIT, 100 * MS, 0);
        assertThat(concurrency.limit()).isEqualTo(4 * AdaptiveConcurrency.INITIAL_LIMIT);
    }

    @Test
    void theLimitDoesNotGrowWhileCallsLeaveItMostlyUnused() {
        AdaptiveConcurrency concurrency = new AdaptiveConcurrency(256);

        for (int i = 0; i < 300; i++) {
            concurrency.sample(100 * MS, 0, 2);
        }

        assertThat(concurrency.limit()).isEqualTo(AdaptiveConcurrency.INITIAL_LIMIT);
    }

    @Test
    void aProviderThatQueuesCallsKeepsTheLimitNearWhatItWorksOnAtOnce() {
        AdaptiveConcurrency concurrency = new AdaptiveConcurrency(256);
        answer(concurrency, 300, 100 * MS, 0);
        assertThat(concurrency.limit()).isEqualTo(256);

        // a provider working on 64 calls at once: beyond them, each call waits its turn there
        for (int i = 0; i < 1_500; i++) {
            concurrency.sample(100 * MS * Math.max(1, concurrency.limit()) / 64, 0, concurrency.limit());
        }

        assertThat(concurrency.limit()).isBetween(64, (int) (64 * (1 + AdaptiveConcurrency.TOLERANCE)));
    }

    @Test
    void aRoundCutsTheLimitAtMostByHalf() {
        AdaptiveConcurrency concurrency = new AdaptiveConcurrency(256);
        answer(concurrency, 300, 100 * MS, 0);

        answer(concurrency, 257, 5_000 * MS, 0);

        assertThat(concurrency.limit()).isEqualTo(128);
    }

    @Test
    void oneSlowAnswerInARoundCutsNothing() {
        AdaptiveConcurrency concurrency = new AdaptiveConcurrency(256);
        answer(concurrency, 300, 100 * MS, 0);

        concurrency.sample(2_000 * MS, 0, concurrency.limit());
        answer(concurrency, 300, 100 * MS, 0);

        assertThat(concurrency.limit()).isEqualTo(256);
    }

    @Test
    void aRiseWithinTheToleranceHoldsTheLimit() {
        AdaptiveConcurrency concurrency = new AdaptiveConcurrency(1_000);
        // four rounds of 16, 16, 32 and 64 answers, each doubling
        answer(concurrency, 128, 100 * MS, 0);
        assertThat(concurrency.limit()).isEqualTo(256);

        answer(concurrency, 1_500, 140 * MS, 0);

        assertThat(concurrency.limit()).isEqualTo(256);
    }

    @Test
    void answersSlowedByThisInstanceCutNothing() {
        AdaptiveConcurrency concurrency = new AdaptiveConcurrency(256);
        answer(concurrency, 300, 100 * MS, 0);

        // a push flood on the shared cores: timers run 120 ms late, and every answer is read as late
        answer(concurrency, 2_000, 340 * MS, 120 * MS);

        assertThat(concurrency.limit()).isEqualTo(256);
    }

    @Test
    void whileThisInstanceRunsLateEvenARiseItDoesNotExplainCutsNothing() {
        AdaptiveConcurrency concurrency = new AdaptiveConcurrency(256);
        answer(concurrency, 300, 100 * MS, 0);

        // the instance is 30 ms behind, more than it may be for its latencies to be trusted
        answer(concurrency, 2_000, 400 * MS, 30 * MS);

        assertThat(concurrency.limit()).isEqualTo(256);
    }

    @Test
    void theSameRiseWithTheInstanceOnTimeCutsTheLimit() {
        AdaptiveConcurrency concurrency = new AdaptiveConcurrency(256);
        answer(concurrency, 300, 100 * MS, 0);

        answer(concurrency, 1_000, 400 * MS, 5 * MS);

        assertThat(concurrency.limit()).isLessThan(64);
    }

    @Test
    void aFastProvidersQueueIsSeenThroughTheEventLoopsOrdinaryJitter() {
        AdaptiveConcurrency concurrency = new AdaptiveConcurrency(256);
        answer(concurrency, 300, 5 * MS, 0);

        // timers a millisecond late, a fifth of this provider's latency, while its answers take three times as long
        answer(concurrency, 1_000, 15 * MS, MS);

        assertThat(concurrency.limit()).isLessThan(64);
    }

    @Test
    void answersOfAProviderThatAnswersAtOnceReadAMillisecondLateCutNothing() {
        AdaptiveConcurrency concurrency = new AdaptiveConcurrency(256);
        answer(concurrency, 300, MS / 5, 0);

        // seven times the lowest latency, all of it this instance's loop reading the answers late
        answer(concurrency, 2_000, 1_400_000, 0);

        assertThat(concurrency.limit()).isEqualTo(256);
    }

    @Test
    void aProviderThatAnswersAtOnceAndThenQueuesBeyondTheJitterIsCut() {
        AdaptiveConcurrency concurrency = new AdaptiveConcurrency(256);
        answer(concurrency, 300, MS / 5, 0);

        answer(concurrency, 1_000, 10 * MS, 0);

        assertThat(concurrency.limit()).isLessThan(64);
    }

    @Test
    void aCollectionPauseCutsNothing() {
        AdaptiveConcurrency concurrency = new AdaptiveConcurrency(256);
        answer(concurrency, 300, 100 * MS, 0);

        // every call out during a 300 ms pause answers 300 ms late, and so does the timer
        answer(concurrency, 256, 400 * MS, 300 * MS);
        answer(concurrency, 300, 100 * MS, 0);

        assertThat(concurrency.limit()).isEqualTo(256);
    }

    @Test
    void aLimitStartedDuringAFloodStillGrowsToTheCeiling() {
        AdaptiveConcurrency concurrency = new AdaptiveConcurrency(256);

        // the first answers already come during the flood: a few on time, most late by what the timers show
        for (int i = 0; i < 2_000; i++) {
            boolean onTime = i % 10 == 0;
            concurrency.sample(onTime ? 100 * MS : 250 * MS, onTime ? 0 : 75 * MS, concurrency.limit());
        }

        assertThat(concurrency.limit()).isEqualTo(256);
    }

    @Test
    void afterAQueueTheLimitProbesUpwardGently() {
        AdaptiveConcurrency concurrency = new AdaptiveConcurrency(1_000);
        answer(concurrency, 128, 100 * MS, 0);
        // one round of 128 answers, queued at the provider
        answer(concurrency, 128, 400 * MS, 0);
        assertThat(concurrency.limit()).isEqualTo(128);

        // the next round: the 256 calls out when the cut came, answered at the unloaded latency again
        answer(concurrency, 256, 100 * MS, 0);

        assertThat(concurrency.limit()).isEqualTo((int) (128 * (1 + AdaptiveConcurrency.CAUTIOUS_GROWTH)));
    }

    @Test
    void underAPaceTheLimitKeepsWhatCarriesThePaceAtTheLatencySeenNow() {
        AdaptiveConcurrency concurrency = new AdaptiveConcurrency(256);
        concurrency.pace(200);
        answer(concurrency, 200, 100 * MS, 0);

        answer(concurrency, 1_500, 400 * MS, 0);

        double carriesThePace = 200 * 0.4 * AdaptiveConcurrency.PACE_HEADROOM;
        assertThat(concurrency.limit()).isBetween((int) carriesThePace - 2, (int) carriesThePace + 2);
    }

    @Test
    void aProviderThatGotSlowerForGoodIsMeasuredAgainAndTheLimitRecovers() {
        AdaptiveConcurrency concurrency = new AdaptiveConcurrency(256);
        answer(concurrency, 300, 50 * MS, 0);

        // slower from now on: congested at first, then, with the lowest latency forgotten, the new normal
        answer(concurrency, AdaptiveConcurrency.PROBE_EVERY * 4, 200 * MS, 0);

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
        granted.get(0).release(100 * MS, 0);
        assertThat(granted).hasSize(3);
        assertThat(concurrency.inFlight()).isEqualTo(2);
        granted.get(1).releaseUnmeasured();
        granted.get(2).release(100 * MS, 0);
        granted.get(3).release(100 * MS, 0);

        assertThat(granted).hasSize(4);
        assertThat(concurrency.inFlight()).isZero();
    }

    @Test
    void aSlotGivenBackTwiceIsFreedOnce() {
        AdaptiveConcurrency concurrency = new AdaptiveConcurrency(2);
        List<AdaptiveConcurrency.Slot> granted = new ArrayList<>();
        concurrency.acquire().subscribe().with(granted::add);
        concurrency.acquire().subscribe().with(granted::add);

        granted.get(0).release(100 * MS, 0);
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
        granted.get(0).release(100 * MS, 0);

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
        answer(concurrency, AdaptiveConcurrency.INITIAL_LIMIT, 100 * MS, 0);
        int grown = concurrency.limit();

        granted.get(0).release(100 * MS, 0);

        assertThat(grown).isGreaterThan(AdaptiveConcurrency.INITIAL_LIMIT + 5);
        assertThat(concurrency.inFlight()).isEqualTo(Math.min(39, concurrency.limit()));
    }

    @Test
    void theCeilingIsNeverExceeded() {
        AdaptiveConcurrency concurrency = new AdaptiveConcurrency(10);

        answer(concurrency, 1_000, MS, 0);

        assertThat(concurrency.limit()).isEqualTo(10);
    }

    /** {@code answers} answers of the same latency and local delay, each while the calls fill the limit. */
    private static void answer(AdaptiveConcurrency concurrency, int answers, long latencyNanos, long localDelayNanos) {
        for (int i = 0; i < answers; i++) {
            concurrency.sample(latencyNanos, localDelayNanos, concurrency.limit());
        }
    }
}
