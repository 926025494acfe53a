package dev.tickler.schedule;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.time.LocalDateTime;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.tickler.ledger.Channel;
import dev.tickler.schedule.ScheduleRow.Position;
import dev.tickler.schedule.recurrence.DstPolicy;
import dev.tickler.schedule.recurrence.RecurrenceRule;

/** The top-up rules without a database: catch-up, the two kept ahead, numbering across a rewind, the end. */
class OccurrencePlanTest {

    private static final Instant NOW = Instant.parse("2026-12-01T12:00:00.250Z");

    private static ScheduleRow daily(String start, String rule, CatchUp catchUp) {
        ScheduleDefinition definition = new ScheduleDefinition(LocalDateTime.parse(start), "UTC",
                RecurrenceRule.parse(rule), DstPolicy.DEFAULT);
        return new ScheduleRow(1, "default", "u", Channel.EMAIL, "t", Map.of(), null, definition, catchUp, ScheduleState.ACTIVE,
                0, 0, Position.BEFORE_FIRST, Position.BEFORE_FIRST, 0, "key-1", NOW, NOW);
    }

    private static ScheduleRow after(ScheduleRow schedule, OccurrencePlan.Plan plan) {
        return new ScheduleRow(schedule.id(), schedule.tenant(), schedule.userId(), schedule.channel(), schedule.template(),
                schedule.data(), null, schedule.definition(), schedule.catchUp(), ScheduleState.ACTIVE,
                schedule.skippedCount() + plan.skipped(), plan.lastNumber(), plan.cursor(), plan.anchor(), 0,
                "key-1", NOW, NOW);
    }

    private static List<Integer> numbers(List<OccurrencePlan.Numbered> occurrences) {
        return occurrences.stream().map(OccurrencePlan.Numbered::number).toList();
    }

    @Test
    void aFutureScheduleCreatesTwoAndNothingMoreUntilOneEnds() {
        ScheduleRow schedule = daily("2026-12-05T09:00", "FREQ=DAILY", CatchUp.LATEST);

        OccurrencePlan.Plan first = OccurrencePlan.topUp(schedule, 0, NOW);
        assertThat(numbers(first.toSend())).containsExactly(1, 2);
        assertThat(first.lastNumber()).isEqualTo(2);

        ScheduleRow topped = after(schedule, first);
        assertThat(OccurrencePlan.topUp(topped, 2, NOW).changesNothing(topped)).isTrue();
        assertThat(numbers(OccurrencePlan.topUp(topped, 1, NOW).toSend())).containsExactly(3);
    }

    @Test
    void anOccurrenceDueThisSecondIsNotMissed() {
        ScheduleRow schedule = daily("2026-12-01T12:00", "FREQ=DAILY", CatchUp.NONE);

        OccurrencePlan.Plan plan = OccurrencePlan.topUp(schedule, 0, NOW);

        assertThat(plan.toSkip()).isEmpty();
        assertThat(numbers(plan.toSend())).containsExactly(1, 2);
    }

    @Test
    void latestSendsTheLastMissedAndNoneSkipsAll() {
        OccurrencePlan.Plan latest = OccurrencePlan.topUp(daily("2026-11-26T09:00", "FREQ=DAILY", CatchUp.LATEST),
                0, NOW);
        assertThat(numbers(latest.toSkip())).containsExactly(1, 2, 3, 4, 5);
        assertThat(numbers(latest.toSend())).containsExactly(6, 7);
        assertThat(latest.skipped()).isEqualTo(5);

        OccurrencePlan.Plan none = OccurrencePlan.topUp(daily("2026-11-26T09:00", "FREQ=DAILY", CatchUp.NONE), 0, NOW);
        assertThat(numbers(none.toSkip())).containsExactly(1, 2, 3, 4, 5, 6);
        assertThat(numbers(none.toSend())).containsExactly(7, 8);
        assertThat(none.anchor().position()).isEqualTo(6);
    }

    @Test
    void moreThanAHundredSkippedAreOnlyCounted() {
        OccurrencePlan.Plan plan = OccurrencePlan.topUp(daily("2026-01-01T09:00", "FREQ=DAILY", CatchUp.LATEST), 0,
                NOW);

        assertThat(plan.toSkip()).hasSize(100);
        assertThat(plan.toSkip().get(0).number()).isEqualTo(235);
        assertThat(plan.onlyCounted()).isEqualTo(234);
        assertThat(numbers(plan.toSend())).containsExactly(335, 336);
    }

    @Test
    void allStopsAfterAThousandLateOnesAndGoesOnInTheNextPass() {
        ScheduleRow schedule = daily("2020-01-01T09:00", "FREQ=DAILY", CatchUp.ALL);

        OccurrencePlan.Plan first = OccurrencePlan.topUp(schedule, 0, NOW);
        assertThat(first.complete()).isFalse();
        assertThat(first.toSend()).hasSize(OccurrencePlan.MAX_LATE);

        OccurrencePlan.Plan second = OccurrencePlan.topUp(after(schedule, first), OccurrencePlan.MAX_LATE, NOW);
        assertThat(second.toSend().get(0).number()).isEqualTo(OccurrencePlan.MAX_LATE + 1);
    }

    @Test
    void aRewindGivesTheWaitingTimesBackUnderNewNumbers() {
        ScheduleRow schedule = daily("2026-12-05T09:00", "FREQ=DAILY", CatchUp.LATEST);
        ScheduleRow topped = after(schedule, OccurrencePlan.topUp(schedule, 0, NOW));

        Position back = OccurrencePlan.rewound(topped, NOW);
        ScheduleRow rewound = topped.with(topped.definition(), topped.catchUp(), topped.data(), null,
                ScheduleState.ACTIVE, back, back);
        OccurrencePlan.Plan again = OccurrencePlan.topUp(rewound, 0, NOW);

        assertThat(back).isEqualTo(Position.BEFORE_FIRST);
        assertThat(numbers(again.toSend())).containsExactly(3, 4);
        assertThat(again.toSend().get(0).occurrence().instant()).isEqualTo(Instant.parse("2026-12-05T09:00:00Z"));
        assertThat(OccurrencePlan.upcoming(after(rewound, again), NOW, 3).orElseThrow())
                .extracting(OccurrencePlan.Numbered::number).containsExactly(3, 4, 5);
    }

    @Test
    void aBoundedRuleIsExhaustedAfterItsLastOccurrence() {
        ScheduleRow schedule = daily("2026-12-05T09:00", "FREQ=DAILY;COUNT=3", CatchUp.LATEST);
        OccurrencePlan.Plan first = OccurrencePlan.topUp(schedule, 0, NOW);
        assertThat(first.exhausted()).isFalse();

        OccurrencePlan.Plan last = OccurrencePlan.topUp(after(schedule, first), 1, NOW);
        assertThat(numbers(last.toSend())).containsExactly(3);
        assertThat(last.exhausted()).isTrue();
    }

    @Test
    void aCatchUpOfManyPassesRecordsTheHundredMostRecentSkipsInItsLastPassOnly() {
        // every minute from 1 November to NOW: 43,920 missed, more than two passes of 20,000 examine
        String everyMinute = "FREQ=DAILY;BYHOUR=" + range(0, 23) + ";BYMINUTE=" + range(0, 59);
        ScheduleRow schedule = daily("2026-11-01T00:00", everyMinute, CatchUp.LATEST);
        long missed = 30L * 24 * 60 + 12 * 60;

        OccurrencePlan.Plan pass = OccurrencePlan.topUp(schedule, 0, NOW);
        int passes = 1;
        long skipped = pass.skipped();
        while (!pass.complete()) {
            assertThat(pass.toSkip()).isEmpty();
            assertThat(pass.toSend()).isEmpty();
            schedule = after(schedule, pass);
            pass = OccurrencePlan.topUp(schedule, 0, NOW);
            passes++;
            skipped += pass.skipped();
        }

        assertThat(passes).isGreaterThan(2);
        assertThat(pass.toSkip()).hasSize(OccurrencePlan.RECORDED_SKIPS);
        assertThat(skipped).isEqualTo(missed - 1);
        // the recorded skips are the hundred right before the one sent late, which is the most recent missed one
        List<Integer> recorded = numbers(pass.toSkip());
        int late = pass.toSend().get(0).number();
        assertThat(late).isEqualTo((int) missed);
        assertThat(recorded).containsExactlyElementsOf(
                java.util.stream.IntStream.range(late - 100, late).boxed().toList());
    }

    private static String range(int from, int to) {
        return java.util.stream.IntStream.rangeClosed(from, to).mapToObj(Integer::toString)
                .collect(java.util.stream.Collectors.joining(","));
    }
}
