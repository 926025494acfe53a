package dev.tickler.db;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

import org.awaitility.core.ConditionFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.smallrye.mutiny.Uni;
import io.vertx.core.Context;
import io.vertx.core.Vertx;

/**
 * The batcher with its statement driven by hand: every batch waits until the test ends it, so which writes leave
 * together, in which order, and who hears what is decided by the test, not by timing.
 */
class StatementBatcherTest {

    private static final Duration DEADLINE = Duration.ofSeconds(30);

    /** One row's write: the row it locks, and a tag that tells writes to the same row apart. */
    private record Write(long row, String tag) {
    }

    private static final Comparator<Write> BY_ROW = Comparator.comparingLong(Write::row);
    private static final int REMEMBERED = StatementBatcher.LINGERED_BATCHES_REMEMBERED;

    @Test
    void aWriteLeavesAtOnceWhileFewerThanMaxInFlightBatchesRun() {
        HandDriven statement = new HandDriven();
        StatementBatcher<Write, String> batcher = new StatementBatcher<>(statement, BY_ROW, 10, 2);

        CompletableFuture<String> first = submit(batcher, write(1, "first"));
        CompletableFuture<String> second = submit(batcher, write(2, "second"));

        assertThat(statement.handed()).containsExactly(List.of(write(1, "first")), List.of(write(2, "second")));
        assertThat(first).isNotDone();
        assertThat(second).isNotDone();
    }

    @Test
    void writesArrivingWhileTheLimitIsReachedWaitAndLeaveTogetherInTheNextBatch() {
        HandDriven statement = new HandDriven();
        StatementBatcher<Write, String> batcher = new StatementBatcher<>(statement, BY_ROW, 10, 1);

        CompletableFuture<String> running = submit(batcher, write(1, "running"));
        CompletableFuture<String> a = submit(batcher, write(2, "a"));
        CompletableFuture<String> b = submit(batcher, write(3, "b"));
        CompletableFuture<String> c = submit(batcher, write(4, "c"));

        assertThat(statement.handed()).containsExactly(List.of(write(1, "running")));

        statement.batch(0).answer();

        assertThat(running).isCompletedWithValue(answerTo(write(1, "running")));
        assertThat(statement.handed()).hasSize(2)
                .last().isEqualTo(List.of(write(2, "a"), write(3, "b"), write(4, "c")));
        assertThat(a).isNotDone();
        assertThat(b).isNotDone();
        assertThat(c).isNotDone();
    }

    @Test
    void theNextBatchTakesAtMostMaxBatchWritesAndTheRestFollowInLaterBatches() {
        HandDriven statement = new HandDriven();
        StatementBatcher<Write, String> batcher = new StatementBatcher<>(statement, BY_ROW, 3, 1);
        List<CompletableFuture<String>> answers = new ArrayList<>();
        for (int row = 1; row <= 8; row++) {
            answers.add(submit(batcher, write(row, "w" + row)));
        }

        statement.batch(0).answer();
        assertThat(statement.handed()).hasSize(2).last().isEqualTo(writes(2, 3, 4));
        statement.batch(1).answer();
        assertThat(statement.handed()).hasSize(3).last().isEqualTo(writes(5, 6, 7));
        statement.batch(2).answer();
        assertThat(statement.handed()).hasSize(4).last().isEqualTo(writes(8));
        statement.batch(3).answer();

        assertThat(statement.handed()).hasSize(4);
        for (int row = 1; row <= 8; row++) {
            assertThat(answers.get(row - 1)).isCompletedWithValue(answerTo(write(row, "w" + row)));
        }
    }

    @Test
    void whicheverBatchEndsFirstLetsTheWaitingWritesLeave() {
        HandDriven statement = new HandDriven();
        StatementBatcher<Write, String> batcher = new StatementBatcher<>(statement, BY_ROW, 10, 2);
        CompletableFuture<String> slow = submit(batcher, write(1, "slow"));
        submit(batcher, write(2, "quick"));
        submit(batcher, write(3, "waiting"));

        statement.batch(1).answer();

        assertThat(statement.handed()).hasSize(3).last().isEqualTo(List.of(write(3, "waiting")));
        assertThat(slow).isNotDone();
    }

    @Test
    void eachBatchIsHandedOverInLockOrderAndEveryCallerGetsTheAnswerAtItsOwnPosition() {
        HandDriven statement = new HandDriven();
        StatementBatcher<Write, String> batcher = new StatementBatcher<>(statement, BY_ROW, 10, 1);
        submit(batcher, write(100, "running"));
        List<Write> arrivals = List.of(write(5, "e"), write(3, "c"), write(9, "i"), write(1, "a"), write(7, "g"));
        Map<Write, CompletableFuture<String>> answers = new ConcurrentHashMap<>();
        for (Write write : arrivals) {
            answers.put(write, submit(batcher, write));
        }

        statement.batch(0).answer();

        assertThat(statement.handed().get(1)).extracting(Write::row).containsExactly(1L, 3L, 5L, 7L, 9L);
        // the statement answers in the order it was given; each caller must get the answer at its own position
        statement.batch(1).answer();
        answers.forEach((write, answer) -> assertThat(answer).as("answer to %s", write)
                .isCompletedWithValue(answerTo(write)));
    }

    @Test
    void writesToTheSameRowEachGetTheirOwnAnswer() {
        HandDriven statement = new HandDriven();
        StatementBatcher<Write, String> batcher = new StatementBatcher<>(statement, BY_ROW, 10, 1);
        submit(batcher, write(100, "running"));
        CompletableFuture<String> first = submit(batcher, write(7, "first"));
        CompletableFuture<String> other = submit(batcher, write(2, "other"));
        CompletableFuture<String> second = submit(batcher, write(7, "second"));

        statement.batch(0).answer();
        assertThat(statement.handed().get(1)).extracting(Write::row).containsExactly(2L, 7L, 7L);
        statement.batch(1).answer();

        assertThat(first).isCompletedWithValue(answerTo(write(7, "first")));
        assertThat(second).isCompletedWithValue(answerTo(write(7, "second")));
        assertThat(other).isCompletedWithValue(answerTo(write(2, "other")));
    }

    @Test
    void batchFailureFailsEveryWriteInItAndTheNextBatchStillRuns() {
        HandDriven statement = new HandDriven();
        StatementBatcher<Write, String> batcher = new StatementBatcher<>(statement, BY_ROW, 10, 1);
        CompletableFuture<String> before = submit(batcher, write(1, "before"));
        CompletableFuture<String> a = submit(batcher, write(2, "a"));
        CompletableFuture<String> b = submit(batcher, write(3, "b"));
        statement.batch(0).answer();
        CompletableFuture<String> after = submit(batcher, write(4, "after"));
        IllegalStateException deadlock = new IllegalStateException("deadlock detected");

        statement.batch(1).fail(deadlock);

        assertThat(before).isCompletedWithValue(answerTo(write(1, "before")));
        assertThat(failureOf(a)).isSameAs(deadlock);
        assertThat(failureOf(b)).isSameAs(deadlock);
        assertThat(statement.handed()).hasSize(3).last().isEqualTo(List.of(write(4, "after")));
        statement.batch(2).answer();
        assertThat(after).isCompletedWithValue(answerTo(write(4, "after")));
    }

    @Test
    void aStatementThatThrowsIsTreatedLikeAFailedBatch() {
        IllegalStateException poolClosed = new IllegalStateException("pool closed");
        HandDriven statement = new HandDriven().throwingFor("boom", poolClosed);
        StatementBatcher<Write, String> batcher = new StatementBatcher<>(statement, BY_ROW, 10, 1);

        CompletableFuture<String> alone = submit(batcher, write(1, "boom"));

        assertThat(failureOf(alone)).isSameAs(poolClosed);

        // the slot it held is free again: with one batch in flight, a leaked slot would keep every later write waiting
        CompletableFuture<String> running = submit(batcher, write(2, "running"));
        CompletableFuture<String> beside = submit(batcher, write(3, "beside"));
        CompletableFuture<String> boom = submit(batcher, write(4, "boom"));
        statement.batch(1).answer();

        assertThat(running).isCompletedWithValue(answerTo(write(2, "running")));
        assertThat(failureOf(beside)).isSameAs(poolClosed);
        assertThat(failureOf(boom)).isSameAs(poolClosed);
        CompletableFuture<String> later = submit(batcher, write(5, "later"));
        assertThat(statement.handed()).last().isEqualTo(List.of(write(5, "later")));
        statement.batch(statement.handed().size() - 1).answer();
        assertThat(later).isCompletedWithValue(answerTo(write(5, "later")));
    }

    @Test
    void manyQueuedBatchesThatAnswerAtOnceAreEachAnsweredWithoutNesting() {
        HandDriven statement = new HandDriven();
        StatementBatcher<Write, String> batcher = new StatementBatcher<>(statement, BY_ROW, 1, 1);
        CompletableFuture<String> first = submit(batcher, write(0, "first"));
        List<CompletableFuture<String>> queued = new ArrayList<>();
        for (int i = 1; i <= 20_000; i++) {
            queued.add(submit(batcher, write(i, "queued")));
        }
        statement.answerAtOnceFromNowOn();

        statement.batch(0).answer();

        assertThat(first).isCompletedWithValue(answerTo(write(0, "first")));
        assertThat(queued).allSatisfy(answer -> assertThat(answer).isCompleted());
        assertThat(statement.handed()).hasSize(20_001);
    }

    @Test
    void aStatementThatAnswersForFewerWritesFailsTheWholeBatch() {
        Function<List<Write>, Uni<List<String>>> shortOfOne = writes -> Uni.createFrom()
                .item(writes.subList(1, writes.size()).stream().map(StatementBatcherTest::answerTo).toList());
        StatementBatcher<Write, String> batcher = new StatementBatcher<>(shortOfOne, BY_ROW, 10, 1);

        CompletableFuture<String> alone = submit(batcher, write(1, "alone"));

        assertThat(failureOf(alone)).isInstanceOf(IllegalStateException.class).hasMessageContaining("answered 0 of 1");
    }

    @Test
    void aWriteIsNotSentBeforeItsAnswerIsSubscribedTo() {
        HandDriven statement = new HandDriven();
        StatementBatcher<Write, String> batcher = new StatementBatcher<>(statement, BY_ROW, 10, 1);

        Uni<String> answer = batcher.submit(write(1, "lazy"));

        assertThat(statement.handed()).isEmpty();
        CompletableFuture<String> subscribed = answer.subscribeAsCompletionStage();
        assertThat(statement.handed()).containsExactly(List.of(write(1, "lazy")));
        statement.batch(0).answer();
        assertThat(subscribed).isCompletedWithValue(answerTo(write(1, "lazy")));
    }

    @Test
    void nothingIsLostOrAnsweredTwiceUnderManyConcurrentSubmitters() throws Exception {
        int submitters = 8;
        int perSubmitter = 1_250;
        int maxBatch = 16;
        int maxInFlight = 2;
        ExecutorService database = Executors.newFixedThreadPool(2);
        ExecutorService callers = Executors.newFixedThreadPool(submitters);
        try {
            ConcurrentStatement statement = new ConcurrentStatement(database);
            StatementBatcher<Write, String> batcher = new StatementBatcher<>(statement, BY_ROW, maxBatch, maxInFlight);
            Map<Write, List<Object>> outcomes = new ConcurrentHashMap<>();
            AtomicInteger answered = new AtomicInteger();
            CountDownLatch start = new CountDownLatch(1);
            for (int s = 0; s < submitters; s++) {
                int submitter = s;
                callers.execute(() -> {
                    awaitQuietly(start);
                    for (int i = 0; i < perSubmitter; i++) {
                        // rows repeat across submitters, so batches hold writes to the same row
                        Write write = write((submitter * 7L + i) % 50, submitter + "-" + i);
                        outcomes.put(write, new CopyOnWriteArrayList<>());
                        batcher.submit(write).subscribe().with(
                                item -> answer(outcomes, answered, write, item),
                                failure -> answer(outcomes, answered, write, failure));
                    }
                });
            }
            start.countDown();

            int total = submitters * perSubmitter;
            eventually().untilAsserted(() -> assertThat(answered).hasValue(total));

            List<Write> handed = statement.handed.stream().flatMap(List::stream).toList();
            assertThat(handed).hasSize(total).doesNotHaveDuplicates();
            assertThat(Set.copyOf(handed)).isEqualTo(outcomes.keySet());
            assertThat(statement.handed).allSatisfy(batch -> assertThat(batch).hasSizeBetween(1, maxBatch)
                    .isSortedAccordingTo(BY_ROW));
            assertThat(statement.mostRunning).hasValueBetween(1, maxInFlight);
            assertThat(statement.failed).isNotEmpty();
            outcomes.forEach((write, heard) -> assertThat(heard).as("answers to %s", write)
                    .containsExactly(statement.failed.contains(write) ? ConcurrentStatement.FAILURE : answerTo(write)));
        } finally {
            callers.shutdownNow();
            database.shutdownNow();
            assertThat(callers.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
            assertThat(database.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
        }
    }

    @Test
    void aLingeringWriteLeavesWhenItsLingerEndsWithEveryWriteThatArrivedMeanwhile() {
        HandDriven statement = new HandDriven();
        HandClock clock = new HandClock();
        StatementBatcher<Write, String> batcher = clock.batcher(statement, 10, 1, Duration.ofMillis(50));

        CompletableFuture<String> first = submit(batcher, write(2, "first"));
        clock.advance(Duration.ofMillis(30));
        CompletableFuture<String> second = submit(batcher, write(1, "second"));

        assertThat(statement.handed()).isEmpty();
        assertThat(clock.wakeUps()).containsExactly(Duration.ofMillis(50));

        clock.advance(Duration.ofMillis(20));
        clock.wakeUp();

        assertThat(statement.handed()).containsExactly(List.of(write(1, "second"), write(2, "first")));
        statement.batch(0).answer();
        assertThat(first).isCompletedWithValue(answerTo(write(2, "first")));
        assertThat(second).isCompletedWithValue(answerTo(write(1, "second")));
        assertThat(clock.wakeUps()).isEmpty();
    }

    @Test
    void aFullBatchLeavesWithoutWaitingForItsLinger() {
        HandDriven statement = new HandDriven();
        HandClock clock = new HandClock();
        StatementBatcher<Write, String> batcher = clock.batcher(statement, 3, 1, Duration.ofMillis(50));

        writes(3, 1, 2).forEach(write -> submit(batcher, write));

        assertThat(statement.handed()).containsExactly(writes(1, 2, 3));
    }

    @Test
    void aWakeUpForWritesThatAlreadyLeftWaitsOnForTheOldestWriteStillQueued() {
        HandDriven statement = new HandDriven();
        HandClock clock = new HandClock();
        StatementBatcher<Write, String> batcher = clock.batcher(statement, 2, 2, Duration.ofMillis(50));

        submit(batcher, write(1, "a"));
        submit(batcher, write(2, "b"));
        statement.batch(0).answer();
        clock.advance(Duration.ofMillis(40));
        CompletableFuture<String> late = submit(batcher, write(3, "late"));
        clock.advance(Duration.ofMillis(10));
        clock.wakeUp();

        assertThat(statement.handed()).containsExactly(List.of(write(1, "a"), write(2, "b")));
        assertThat(clock.wakeUps()).containsExactly(Duration.ofMillis(40));

        clock.advance(Duration.ofMillis(40));
        clock.wakeUp();

        assertThat(statement.handed()).hasSize(2).last().isEqualTo(List.of(write(3, "late")));
        statement.batch(1).answer();
        assertThat(late).isCompletedWithValue(answerTo(write(3, "late")));
    }

    @Test
    void aWriteArrivingWhileABatchRunsLeavesAtOnceAsWithoutLinger() {
        HandDriven statement = new HandDriven();
        HandClock clock = new HandClock();
        StatementBatcher<Write, String> batcher = withOneRunning(clock.batcher(statement, 10, 2, Duration.ofMillis(50)),
                clock, Duration.ofMillis(50));

        submit(batcher, write(2, "busy"));

        assertThat(statement.handed()).containsExactly(List.of(write(1, "lingered")), List.of(write(2, "busy")));
        assertThat(clock.wakeUps()).isEmpty();
    }

    @Test
    void writesArrivingWhileABatchRunsWaitForTheCompanyAskedForAndLeaveWithIt() {
        HandDriven statement = new HandDriven();
        HandClock clock = new HandClock();
        StatementBatcher<Write, String> batcher = runningOneAskingForThree(statement, clock);

        CompletableFuture<String> first = submit(batcher, write(3, "a"));
        clock.advance(Duration.ofMillis(10));
        submit(batcher, write(2, "b"));

        assertThat(statement.handed()).containsExactly(List.of(write(1, "lingered")));
        assertThat(clock.wakeUps()).as("the first one's linger, not a lull").containsExactly(Duration.ofMillis(50));

        submit(batcher, write(4, "c"));

        assertThat(statement.handed()).hasSize(2).last().isEqualTo(List.of(write(2, "b"), write(3, "a"),
                write(4, "c")));
        statement.batch(1).answer();
        assertThat(first).isCompletedWithValue(answerTo(write(3, "a")));
    }

    @Test
    void aWriteWaitingForCompanyWhileABatchRunsLeavesWithoutItWhenItsLingerEnds() {
        HandDriven statement = new HandDriven();
        HandClock clock = new HandClock();
        StatementBatcher<Write, String> batcher = runningOneAskingForThree(statement, clock);
        submit(batcher, write(2, "alone"));

        clock.advance(Duration.ofMillis(50).minusNanos(1));
        clock.wakeUp();
        assertThat(statement.handed()).hasSize(1);

        clock.advance(Duration.ofNanos(1));
        clock.wakeUp();

        assertThat(statement.handed()).hasSize(2).last().isEqualTo(List.of(write(2, "alone")));
    }

    @Test
    void aWriteStillShortOfCompanyWhenTheRunningBatchEndsLingersOn() {
        HandDriven statement = new HandDriven();
        HandClock clock = new HandClock();
        StatementBatcher<Write, String> batcher = runningOneAskingForThree(statement, clock);
        submit(batcher, write(2, "waiting"));
        clock.advance(Duration.ofMillis(20));

        statement.batch(0).answer();

        assertThat(statement.handed()).hasSize(1);
        assertThat(clock.wakeUps()).containsExactly(Duration.ofMillis(50));

        clock.advance(Duration.ofMillis(30));
        clock.wakeUp();

        assertThat(statement.handed()).hasSize(2).last().isEqualTo(List.of(write(2, "waiting")));
    }

    /** A batcher that asks for three writes' company while others run (linger 50 ms), its first batch running. */
    private static StatementBatcher<Write, String> runningOneAskingForThree(HandDriven statement, HandClock clock) {
        return withOneRunning(clock.batcher(statement, 10, 4, Duration.ofMillis(50), 3), clock, Duration.ofMillis(50));
    }

    /** The batcher with its first write, (1, "lingered"), lingered out and its batch running, not yet answered. */
    private static StatementBatcher<Write, String> withOneRunning(StatementBatcher<Write, String> batcher,
            HandClock clock, Duration linger) {
        submit(batcher, write(1, "lingered"));
        clock.advance(linger);
        clock.wakeUp();
        return batcher;
    }

    @Test
    void aWriteThatHasLingeredWaitsForRoomAndLeavesWhenABatchEnds() {
        HandDriven statement = new HandDriven();
        HandClock clock = new HandClock();
        StatementBatcher<Write, String> batcher = clock.batcher(statement, 2, 1, Duration.ofMillis(50));

        submit(batcher, write(1, "a"));
        submit(batcher, write(2, "b"));
        CompletableFuture<String> waiting = submit(batcher, write(3, "waiting"));
        clock.advance(Duration.ofMillis(50));
        clock.wakeUp();

        assertThat(statement.handed()).hasSize(1);

        statement.batch(0).answer();

        assertThat(statement.handed()).hasSize(2).last().isEqualTo(List.of(write(3, "waiting")));
        statement.batch(1).answer();
        assertThat(waiting).isCompletedWithValue(answerTo(write(3, "waiting")));
    }

    @Test
    void callersBackTogetherLeaveAsSoonAsTheLargestRecentLingeringBatchIsBackWithoutWaitingOutTheLinger() {
        HandDriven statement = new HandDriven();
        HandClock clock = new HandClock();
        StatementBatcher<Write, String> batcher = clock.batcher(statement, 100, 4, Duration.ofMillis(10));
        lingerOut(batcher, statement, clock, REMEMBERED, 3);

        writes(31, 32).forEach(write -> submit(batcher, write));

        assertThat(statement.handed()).hasSize(REMEMBERED);

        CompletableFuture<String> third = submit(batcher, write(33, "w33"));

        assertThat(statement.handed()).hasSize(REMEMBERED + 1).last().isEqualTo(writes(31, 32, 33));
        statement.batch(REMEMBERED).answer();
        assertThat(third).isCompletedWithValue(answerTo(write(33, "w33")));
    }

    @Test
    void writesLingerUntilTheirLingerEndsWhileTheyAreFewerThanTheLargestRecentLingeringBatch() {
        HandDriven statement = new HandDriven();
        HandClock clock = new HandClock();
        StatementBatcher<Write, String> batcher = clock.batcher(statement, 100, 4, Duration.ofMillis(10));
        lingerOut(batcher, statement, clock, 1, 5);
        lingerOut(batcher, statement, clock, REMEMBERED - 1, 1);

        writes(41, 42, 43, 44).forEach(write -> submit(batcher, write));

        assertThat(statement.handed()).hasSize(REMEMBERED);

        clock.advance(Duration.ofMillis(10));
        clock.wakeUp();

        assertThat(statement.handed()).hasSize(REMEMBERED + 1).last().isEqualTo(writes(41, 42, 43, 44));
    }

    @Test
    void everyRememberedLingeringBatchWaitsItsLingerOutSoThatSmallBatchesDoNotStopLingeringForGood() {
        HandDriven statement = new HandDriven();
        HandClock clock = new HandClock();
        StatementBatcher<Write, String> batcher = clock.batcher(statement, 100, 4, Duration.ofMillis(10));
        lingerOut(batcher, statement, clock, REMEMBERED, 1);
        for (int i = 0; i < REMEMBERED - 1; i++) {
            submit(batcher, write(100 + i, "alone"));
            assertThat(statement.handed()).as("alone %d", i).hasSize(REMEMBERED + i + 1);
            statement.batch(REMEMBERED + i).answer();
        }

        submit(batcher, write(200, "probe"));

        assertThat(statement.handed()).hasSize(2 * REMEMBERED - 1);

        submit(batcher, write(201, "company"));
        clock.advance(Duration.ofMillis(10));
        clock.wakeUp();

        assertThat(statement.handed()).hasSize(2 * REMEMBERED).last()
                .isEqualTo(List.of(write(200, "probe"), write(201, "company")));
    }

    /** Three callers in a closed loop, or one caller alone. */
    @ParameterizedTest
    @ValueSource(ints = {3, 1})
    void aLearningBatchThatHoldsTheLargestRecentCompanyLeavesAfterALullInsteadOfItsWholeLinger(int callers) {
        HandDriven statement = new HandDriven();
        HandClock clock = new HandClock();
        StatementBatcher<Write, String> batcher = clock.batcher(statement, 100, 4, Duration.ofMillis(10));
        int learning = untilTheNextLearningBatch(batcher, statement, clock, callers);

        List<Write> back = new ArrayList<>();
        for (int i = 0; i < callers; i++) {
            back.add(write(300 + i, "back"));
        }
        back.forEach(write -> submit(batcher, write));
        clock.advance(Duration.ofMillis(1).minusNanos(1));
        clock.wakeUp();

        assertThat(statement.handed()).as("within the lull").hasSize(learning);

        clock.advance(Duration.ofNanos(1));
        clock.wakeUp();

        assertThat(statement.handed()).hasSize(learning + 1).last().isEqualTo(back);
    }

    @Test
    void aWriteWithinTheLullJoinsTheLearningBatchAndTheLullStartsAgain() {
        HandDriven statement = new HandDriven();
        HandClock clock = new HandClock();
        StatementBatcher<Write, String> batcher = clock.batcher(statement, 100, 4, Duration.ofMillis(10));
        int learning = untilTheNextLearningBatch(batcher, statement, clock, 2);

        writes(300, 301).forEach(write -> submit(batcher, write));
        clock.advance(Duration.ofNanos(900_000));
        submit(batcher, write(302, "late"));
        clock.advance(Duration.ofNanos(200_000));
        clock.wakeUp();

        assertThat(statement.handed()).as("a lull after the late write has not passed").hasSize(learning);

        // three writes over 0.9 ms: the lull is now three mean gaps, 1.35 ms after the late one
        clock.advance(Duration.ofNanos(1_200_000));
        clock.wakeUp();

        assertThat(statement.handed()).hasSize(learning + 1).last()
                .isEqualTo(List.of(write(300, "w300"), write(301, "w301"), write(302, "late")));
    }

    /**
     * A closed loop of {@code callers}: their first batches linger out, then, back together, they leave at once until
     * the 32nd batch learns again. Answers how many batches were handed over before that one.
     */
    private static int untilTheNextLearningBatch(StatementBatcher<Write, String> batcher, HandDriven statement,
            HandClock clock, int callers) {
        lingerOut(batcher, statement, clock, REMEMBERED, callers);
        for (int i = 0; i < REMEMBERED - 1; i++) {
            int before = statement.handed().size();
            for (int j = 0; j < callers; j++) {
                submit(batcher, write(100_000 + callers * i + j, "back"));
            }
            assertThat(statement.handed()).as("back together %d", i).hasSize(before + 1);
            statement.batch(before).answer();
        }
        return statement.handed().size();
    }

    /** Runs {@code times} batches of {@code size} writes, each lingering out its whole linger, and answers them. */
    private static void lingerOut(StatementBatcher<Write, String> batcher, HandDriven statement, HandClock clock,
            int times, int size) {
        for (int i = 0; i < times; i++) {
            int before = statement.handed().size();
            for (int j = 0; j < size; j++) {
                submit(batcher, write(1_000 * (before + 1) + j, "lingered"));
            }
            assertThat(statement.handed()).as("lingering batch %d", before).hasSize(before);
            clock.advance(Duration.ofMillis(10));
            clock.wakeUp();
            assertThat(statement.handed()).hasSize(before + 1);
            statement.batch(before).answer();
        }
    }

    @Test
    void eachCallerOnAVertxContextHearsItsAnswerOnThatContext() throws Exception {
        Vertx vertx = Vertx.vertx();
        try {
            HandDriven statement = new HandDriven();
            StatementBatcher<Write, String> batcher = new StatementBatcher<>(statement, BY_ROW, 10, 1);
            Context first = newContext(vertx);
            Context second = newContext(vertx);
            assertThat(first).isNotSameAs(second);
            Map<String, Context> heardOn = new ConcurrentHashMap<>();
            Map<String, String> heard = new ConcurrentHashMap<>();
            first.runOnContext(ignored -> batcher.submit(write(2, "first")).subscribe().with(item -> {
                heard.put("first", item);
                heardOn.put("first", Vertx.currentContext());
            }));
            eventually().until(() -> statement.handed().size() == 1);
            second.runOnContext(ignored -> batcher.submit(write(1, "second")).subscribe().with(item -> {
                heard.put("second", item);
                heardOn.put("second", Vertx.currentContext());
            }));
            // the second write waits behind the first batch; it is queued by the time its context has run
            CountDownLatch queued = new CountDownLatch(1);
            second.runOnContext(ignored -> queued.countDown());
            assertThat(queued.await(DEADLINE.toSeconds(), TimeUnit.SECONDS)).isTrue();

            // ended from a thread of no context: each answer must travel to its caller's context
            statement.batch(0).answer();
            eventually().until(() -> heard.containsKey("first") && statement.handed().size() == 2);
            statement.batch(1).answer();
            eventually().until(() -> heard.containsKey("second"));

            assertThat(heard).containsEntry("first", answerTo(write(2, "first")))
                    .containsEntry("second", answerTo(write(1, "second")));
            assertThat(heardOn.get("first")).isSameAs(first);
            assertThat(heardOn.get("second")).isSameAs(second);
        } finally {
            vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        }
    }

    /** Awaitility with a deadline, checking at once and then often: the waits here end within milliseconds. */
    private static ConditionFactory eventually() {
        return await().atMost(DEADLINE).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(5));
    }

    /** A context of its own: from a thread outside Vert.x, each thread is given a context that stays with it. */
    private static Context newContext(Vertx vertx) throws Exception {
        CompletableFuture<Context> context = new CompletableFuture<>();
        new Thread(() -> context.complete(vertx.getOrCreateContext())).start();
        return context.get(10, TimeUnit.SECONDS);
    }

    private static Write write(long row, String tag) {
        return new Write(row, tag);
    }

    private static List<Write> writes(int... rows) {
        List<Write> writes = new ArrayList<>();
        for (int row : rows) {
            writes.add(write(row, "w" + row));
        }
        return writes;
    }

    private static String answerTo(Write write) {
        return "row " + write.row() + " for " + write.tag();
    }

    private static CompletableFuture<String> submit(StatementBatcher<Write, String> batcher, Write write) {
        return batcher.submit(write).subscribeAsCompletionStage();
    }

    private static Throwable failureOf(CompletableFuture<?> answer) {
        assertThat(answer).isCompletedExceptionally();
        return answer.handle((item, failure) -> failure).join();
    }

    private static void answer(Map<Write, List<Object>> outcomes, AtomicInteger answered, Write write, Object outcome) {
        outcomes.get(write).add(outcome);
        answered.incrementAndGet();
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The batcher's clock and timer, moved and fired by the test: a wake-up runs only when the test says so. */
    private static final class HandClock {

        private long nanos;
        private final List<Duration> requested = new ArrayList<>();
        private final List<Runnable> pending = new ArrayList<>();

        StatementBatcher<Write, String> batcher(HandDriven statement, int maxBatch, int maxInFlight, Duration linger) {
            return batcher(statement, maxBatch, maxInFlight, linger, 1);
        }

        StatementBatcher<Write, String> batcher(HandDriven statement, int maxBatch, int maxInFlight, Duration linger,
                int companyWhileRunning) {
            return new StatementBatcher<>(statement, BY_ROW, maxBatch, maxInFlight, linger, companyWhileRunning,
                    () -> nanos, (wait, wake) -> {
                        requested.add(Duration.ofNanos(wait));
                        pending.add(wake);
                    });
        }

        void advance(Duration by) {
            nanos += by.toNanos();
        }

        /** The waits asked for and not yet run. */
        List<Duration> wakeUps() {
            return List.copyOf(requested);
        }

        /** Runs the wake-ups asked for so far; one they ask for in turn waits for the next call. */
        void wakeUp() {
            List<Runnable> due = List.copyOf(pending);
            pending.clear();
            requested.clear();
            due.forEach(Runnable::run);
        }
    }

    /** Records every batch it is handed and leaves it running until the test answers or fails it. */
    private static final class HandDriven implements Function<List<Write>, Uni<List<String>>> {

        private final List<Batch> batches = new CopyOnWriteArrayList<>();
        private String throwingTag;
        private RuntimeException thrown;
        private boolean answerAtOnce;

        /** From now on every batch is answered before apply returns, as a client with the answer at hand would. */
        void answerAtOnceFromNowOn() {
            answerAtOnce = true;
        }

        /** Throws, instead of answering with a Uni, for every batch that holds a write with this tag. */
        HandDriven throwingFor(String tag, RuntimeException exception) {
            this.throwingTag = tag;
            this.thrown = exception;
            return this;
        }

        @Override
        public Uni<List<String>> apply(List<Write> writes) {
            Batch batch = new Batch(List.copyOf(writes), new CompletableFuture<>());
            batches.add(batch);
            if (throwingTag != null && writes.stream().anyMatch(write -> write.tag().equals(throwingTag))) {
                throw thrown;
            }
            if (answerAtOnce) {
                batch.answer();
            }
            return Uni.createFrom().completionStage(batch.result());
        }

        List<List<Write>> handed() {
            return batches.stream().map(Batch::writes).toList();
        }

        Batch batch(int index) {
            return batches.get(index);
        }
    }

    private record Batch(List<Write> writes, CompletableFuture<List<String>> result) {

        void answer() {
            assertThat(result.complete(writes.stream().map(StatementBatcherTest::answerTo).toList()))
                    .as("batch %s ended once", writes).isTrue();
        }

        void fail(RuntimeException failure) {
            assertThat(result.completeExceptionally(failure)).as("batch %s ended once", writes).isTrue();
        }
    }

    /**
     * Ends every batch on a thread of its own, as a database client would; every seventh batch fails. Counts how
     * many batches run at once, from the moment it is handed one until just before it ends it.
     */
    private static final class ConcurrentStatement implements Function<List<Write>, Uni<List<String>>> {

        static final IllegalStateException FAILURE = new IllegalStateException("batch failed");

        final List<List<Write>> handed = new CopyOnWriteArrayList<>();
        final Set<Write> failed = ConcurrentHashMap.newKeySet();
        final AtomicInteger mostRunning = new AtomicInteger();
        private final AtomicInteger running = new AtomicInteger();
        private final AtomicInteger count = new AtomicInteger();
        private final ExecutorService database;

        ConcurrentStatement(ExecutorService database) {
            this.database = database;
        }

        @Override
        public Uni<List<String>> apply(List<Write> writes) {
            mostRunning.accumulateAndGet(running.incrementAndGet(), Math::max);
            List<Write> batch = List.copyOf(writes);
            handed.add(batch);
            boolean fails = count.incrementAndGet() % 7 == 0;
            if (fails) {
                failed.addAll(batch);
            }
            CompletableFuture<List<String>> result = new CompletableFuture<>();
            database.execute(() -> {
                running.decrementAndGet();
                if (fails) {
                    result.completeExceptionally(FAILURE);
                } else {
                    result.complete(batch.stream().map(StatementBatcherTest::answerTo).toList());
                }
            });
            return Uni.createFrom().completionStage(result);
        }
    }

    @Test
    void aConfiguredLingerOutsideZeroToOneSecondIsRefusedByItsKey() {
        for (Duration linger : List.of(Duration.ofMillis(1_001), Duration.ofMillis(-10), Duration.ofDays(1))) {
            assertThatThrownBy(() -> StatementBatcher.configuredLinger("tickler.api.registration-linger", linger,
                    "PT0.01S")).isInstanceOf(IllegalStateException.class)
                    .hasMessageStartingWith("tickler.api.registration-linger is " + linger)
                    .hasMessageContaining("between zero").hasMessageContaining("PT1S")
                    .hasMessageEndingWith("the default PT0.01S");
        }
        for (Duration linger : List.of(Duration.ZERO, Duration.ofMillis(50), StatementBatcher.LONGEST_LINGER)) {
            assertThat(StatementBatcher.configuredLinger("tickler.delivery.settle-linger", linger, "PT0.05S"))
                    .isEqualTo(linger);
        }
    }
}
