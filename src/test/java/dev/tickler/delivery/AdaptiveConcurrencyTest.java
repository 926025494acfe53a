package dev.tickler.delivery;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

import io.smallrye.mutiny.Uni;

/** The notifier's concurrency limit on a clock the test moves: how it grows, shrinks, and stays in bounds. */
class AdaptiveConcurrencyTest {

    private static final long MS = 1_000_000;

    private final AtomicLong now = new AtomicLong();

    @Test
    void theLimitGrowsWhileLatencyStaysFlatAndCallsPressAgainstIt() {
        AdaptiveConcurrency concurrency = new AdaptiveConcurrency(256, now::get);

        for (int i = 0; i < 300; i++) {
            concurrency.sample(100 * MS, concurrency.limit());
        }

        assertThat(concurrency.limit()).isEqualTo(256);
    }

    @Test
    void theLimitDoesNotGrowWhileCallsLeaveItMostlyUnused() {
        AdaptiveConcurrency concurrency = new AdaptiveConcurrency(256, now::get);

        for (int i = 0; i < 300; i++) {
            concurrency.sample(100 * MS, 2);
        }

        assertThat(concurrency.limit()).isEqualTo(AdaptiveConcurrency.INITIAL_LIMIT);
    }

    @Test
    void theLimitShrinksWhenLatencyRisesAsCallsQueueAtTheProvider() {
        AdaptiveConcurrency concurrency = new AdaptiveConcurrency(256, now::get);
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
    void a429HalvesTheLimitAtOnceAndItNeverFallsBelowOne() {
        AdaptiveConcurrency concurrency = new AdaptiveConcurrency(256, now::get);
        for (int i = 0; i < 300; i++) {
            concurrency.sample(100 * MS, concurrency.limit());
        }

        concurrency.rateLimited();
        assertThat(concurrency.limit()).isEqualTo(128);
        for (int i = 0; i < 20; i++) {
            concurrency.rateLimited();
        }
        assertThat(concurrency.limit()).isEqualTo(1);
    }

    @Test
    void aProviderThatGotSlowerForGoodIsMeasuredAgainAndTheLimitRecovers() {
        AdaptiveConcurrency concurrency = new AdaptiveConcurrency(256, now::get);
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
        AdaptiveConcurrency concurrency = new AdaptiveConcurrency(2, now::get);
        List<CompletableFuture<String>> answers = new ArrayList<>();
        List<CompletableFuture<String>> results = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            CompletableFuture<String> answer = new CompletableFuture<>();
            answers.add(answer);
            results.add(concurrency.run(() -> Uni.createFrom().completionStage(answer)).subscribeAsCompletionStage()
                    .toCompletableFuture());
        }

        assertThat(concurrency.inFlight()).isEqualTo(2);
        answers.get(0).complete("first");
        assertThat(results.get(0)).isCompletedWithValue("first");
        assertThat(concurrency.inFlight()).isEqualTo(2);
        answers.get(1).complete("second");
        answers.get(2).complete("third");
        answers.get(3).complete("fourth");

        assertThat(results).allSatisfy(result -> assertThat(result).isCompleted());
        assertThat(concurrency.inFlight()).isZero();
    }

    @Test
    void theCeilingIsNeverExceeded() {
        AdaptiveConcurrency concurrency = new AdaptiveConcurrency(10, now::get);

        for (int i = 0; i < 1_000; i++) {
            concurrency.sample(MS, concurrency.limit());
        }

        assertThat(concurrency.limit()).isEqualTo(10);
    }
}
