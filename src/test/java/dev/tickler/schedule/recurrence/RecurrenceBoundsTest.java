package dev.tickler.schedule.recurrence;

import static dev.tickler.schedule.recurrence.Occurrences.lines;
import static dev.tickler.schedule.recurrence.Occurrences.recurrence;
import static dev.tickler.schedule.recurrence.Occurrences.wallTimes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

import dev.tickler.schedule.recurrence.DstPolicy.Gap;
import dev.tickler.schedule.recurrence.DstPolicy.Overlap;

/** COUNT, UNTIL, rules that never match, the supported range, and resuming. */
class RecurrenceBoundsTest {

    private static final DstPolicy SHIFT = new DstPolicy(Gap.SHIFT, Overlap.FIRST);
    private static final DstPolicy SKIP = new DstPolicy(Gap.SKIP, Overlap.FIRST);
    private static final Duration QUICKLY = Duration.ofSeconds(2);

    static Stream<DstPolicy> policies() {
        return Occurrences.ALL_POLICIES.stream();
    }

    /** Daily at 02:30 in New York from 6 March 2026, across the spring-forward of 8 March. */
    private static List<String> acrossSpringForward(String bound, DstPolicy policy) {
        return wallTimes(recurrence("FREQ=DAILY;" + bound, "2026-03-06T02:30", "America/New_York", policy), 100);
    }

    @Test
    void countDoesNotCountASkippedWallTime() {
        assertThat(lines(recurrence("FREQ=DAILY;COUNT=5", "2026-03-06T02:30", "America/New_York", SKIP), 10))
                .containsExactly(
                        "1 2026-03-06T02:30 2026-03-06T07:30:00Z 2026-03-06T02:30-05:00 -",
                        "2 2026-03-07T02:30 2026-03-07T07:30:00Z 2026-03-07T02:30-05:00 -",
                        "3 2026-03-09T02:30 2026-03-09T06:30:00Z 2026-03-09T02:30-04:00 -",
                        "4 2026-03-10T02:30 2026-03-10T06:30:00Z 2026-03-10T02:30-04:00 -",
                        "5 2026-03-11T02:30 2026-03-11T06:30:00Z 2026-03-11T02:30-04:00 -");
        assertThat(lines(recurrence("FREQ=DAILY;COUNT=5", "2026-03-06T02:30", "America/New_York", SHIFT), 10))
                .containsExactly(
                        "1 2026-03-06T02:30 2026-03-06T07:30:00Z 2026-03-06T02:30-05:00 -",
                        "2 2026-03-07T02:30 2026-03-07T07:30:00Z 2026-03-07T02:30-05:00 -",
                        "3 2026-03-08T02:30 2026-03-08T07:30:00Z 2026-03-08T03:30-04:00 gap_shifted",
                        "4 2026-03-09T02:30 2026-03-09T06:30:00Z 2026-03-09T02:30-04:00 -",
                        "5 2026-03-10T02:30 2026-03-10T06:30:00Z 2026-03-10T02:30-04:00 -");
    }

    @Test
    void countIncludesTheStartEvenOffTheRule() {
        assertThat(wallTimes(recurrence("FREQ=WEEKLY;BYDAY=MO;COUNT=3", "2026-01-06T09:00", "Europe/Berlin",
                SHIFT), 10)).containsExactly("2026-01-06T09:00", "2026-01-12T09:00", "2026-01-19T09:00");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        // UTC: compared with instants; the shifted 8 March occurrence is 07:30Z
        "UNTIL=20260308T073000Z | SHIFT | 2026-03-06T02:30,2026-03-07T02:30,2026-03-08T02:30",
        "UNTIL=20260308T072959Z | SHIFT | 2026-03-06T02:30,2026-03-07T02:30",
        "UNTIL=20260309T063000Z | SHIFT | 2026-03-06T02:30,2026-03-07T02:30,2026-03-08T02:30,2026-03-09T02:30",
        "UNTIL=20260309T063000Z | SKIP  | 2026-03-06T02:30,2026-03-07T02:30,2026-03-09T02:30",
        "UNTIL=20260309T062959Z | SKIP  | 2026-03-06T02:30,2026-03-07T02:30",
        // local date-time: compared with the rule's wall time, not the shifted one
        "UNTIL=20260308T023000  | SHIFT | 2026-03-06T02:30,2026-03-07T02:30,2026-03-08T02:30",
        "UNTIL=20260308T022959  | SHIFT | 2026-03-06T02:30,2026-03-07T02:30",
        "UNTIL=20260308T023000  | SKIP  | 2026-03-06T02:30,2026-03-07T02:30",
        "UNTIL=20260309T023000  | SKIP  | 2026-03-06T02:30,2026-03-07T02:30,2026-03-09T02:30",
        // date: the whole day is included
        "UNTIL=20260308         | SHIFT | 2026-03-06T02:30,2026-03-07T02:30,2026-03-08T02:30",
        "UNTIL=20260307         | SHIFT | 2026-03-06T02:30,2026-03-07T02:30",
        "UNTIL=20260308         | SKIP  | 2026-03-06T02:30,2026-03-07T02:30",
        "UNTIL=20260309         | SKIP  | 2026-03-06T02:30,2026-03-07T02:30,2026-03-09T02:30",
        // a bound on the start itself, or before it
        "UNTIL=20260306T023000  | SHIFT | 2026-03-06T02:30",
        "UNTIL=20260306T073000Z | SHIFT | 2026-03-06T02:30",
        "UNTIL=20260306         | SHIFT | 2026-03-06T02:30",
    })
    void untilAcrossSpringForwardInAllThreeForms(String until, Gap gap, String expected) {
        assertThat(acrossSpringForward(until, new DstPolicy(gap, Overlap.FIRST)))
                .containsExactly(expected.split(","));
    }

    @ParameterizedTest
    @CsvSource({"UNTIL=20260306T022959", "UNTIL=20260306T072959Z", "UNTIL=20260305"})
    void untilBeforeTheStartLeavesNoOccurrence(String until) {
        Recurrence recurrence = recurrence("FREQ=DAILY;" + until, "2026-03-06T02:30", "America/New_York", SHIFT);

        assertThat(recurrence.first()).isEmpty();
        assertThat(wallTimes(recurrence, 2)).isEmpty();
    }

    @ParameterizedTest
    @MethodSource("policies")
    void utcUntilBetweenTheTwoInstantsOfAnOverlap(DstPolicy policy) {
        // 1 November 01:30 is 05:30Z (EDT) or 06:30Z (EST)
        assertThat(wallTimes(recurrence("FREQ=DAILY;UNTIL=20261101T060000Z", "2026-10-31T01:30",
                "America/New_York", policy), 10)).isEqualTo(policy.overlap() == Overlap.FIRST
                        ? List.of("2026-10-31T01:30", "2026-11-01T01:30")
                        : List.of("2026-10-31T01:30"));
    }

    @Test
    void aRuleThatNeverMatchesAfterItsStartYieldsOnlyTheStartQuickly() {
        assertTimeoutPreemptively(QUICKLY, () -> {
            Recurrence yearlyThirtyFirst = recurrence("FREQ=MONTHLY;INTERVAL=12;BYMONTHDAY=31", "2026-02-15T09:00",
                    "Europe/Berlin", SHIFT);
            assertThat(wallTimes(yearlyThirtyFirst, 10)).containsExactly("2026-02-15T09:00");
            assertThat(wallTimes(yearlyThirtyFirst, 2)).hasSize(1);

            Recurrence weeklyOnTheWrongDay = recurrence("FREQ=DAILY;INTERVAL=7;BYDAY=TU", "2026-01-05T09:00",
                    "Europe/Berlin", SHIFT);
            assertThat(wallTimes(weeklyOnTheWrongDay, 10)).containsExactly("2026-01-05T09:00");
            assertThat(wallTimes(weeklyOnTheWrongDay, 2)).hasSize(1);

            Recurrence fifthMondayEveryYear = recurrence("FREQ=MONTHLY;INTERVAL=12;BYDAY=5MO", "2026-02-02T09:00",
                    "Europe/Berlin", SHIFT);
            assertThat(fifthMondayEveryYear.stream().limit(3).map(o -> o.wallTime().toString()))
                    .containsExactly("2026-02-02T09:00", "2044-02-29T09:00", "2072-02-29T09:00");
        });
    }

    @Test
    void aScheduleWithoutAnyOccurrenceIsReportedEmptyQuickly() {
        assertTimeoutPreemptively(QUICKLY, () -> {
            // the start (a Sunday) falls in the spring-forward gap and is skipped; every 7th day is a Sunday again
            assertThat(recurrence("FREQ=DAILY;INTERVAL=7;BYDAY=TU", "2026-03-08T02:30", "America/New_York",
                    SKIP).first()).isEmpty();
            // every wall time the rule selects (second Sunday of March, 02:30) is in a gap, until year 9999
            assertThat(recurrence("FREQ=MONTHLY;INTERVAL=12;BYDAY=2SU", "2026-03-08T02:30", "America/New_York",
                    SKIP).first()).isEmpty();
        });
        assertThat(recurrence("FREQ=MONTHLY;INTERVAL=12;BYDAY=2SU", "2026-03-08T02:30", "America/New_York", SHIFT)
                .first()).get().extracting(Occurrence::note).isEqualTo(DstNote.GAP_SHIFTED);
    }

    @Test
    void aRarelyMatchingRuleIsNotMistakenForANeverMatchingOne() {
        assertThat(wallTimes(recurrence("FREQ=MONTHLY;BYMONTHDAY=30;BYDAY=MO", "2026-03-30T09:00",
                "Europe/Berlin", SHIFT), 4)).containsExactly(
                        "2026-03-30T09:00", "2026-11-30T09:00", "2027-08-30T09:00", "2028-10-30T09:00");
        // 29 February on a Monday: 28 years apart, and 40 across 2100, which is not a leap year
        assertThat(wallTimes(recurrence("FREQ=MONTHLY;INTERVAL=12;BYMONTHDAY=29;BYDAY=MO", "2016-02-29T09:00",
                "Europe/Berlin", SHIFT), 5)).containsExactly(
                        "2016-02-29T09:00", "2044-02-29T09:00", "2072-02-29T09:00", "2112-02-29T09:00",
                        "2140-02-29T09:00");
    }

    @Test
    void theStartMustBeWholeSecondsWithinTheSupportedRange() {
        RecurrenceRule daily = RecurrenceRule.parse("FREQ=DAILY");
        ZoneId utc = ZoneId.of("UTC");

        assertThatThrownBy(() -> Recurrence.of(LocalDateTime.parse("1969-12-31T23:59:59"), utc, daily, SHIFT))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("start must be from");
        assertThatThrownBy(() -> Recurrence.of(LocalDateTime.parse("9999-12-31T00:00"), utc, daily, SHIFT))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("start must be from");
        assertThatThrownBy(() -> Recurrence.of(LocalDateTime.parse("2026-01-01T09:00:00.5"), utc, daily, SHIFT))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("whole seconds");
        assertThat(Recurrence.of(Recurrence.EARLIEST, ZoneId.of("Asia/Tokyo"), daily, SHIFT).first()).get()
                .extracting(Occurrence::instant).isEqualTo(Instant.parse("1969-12-31T15:00:00Z"));
    }

    @Test
    void theOccurrencesEndAtTheEndOfTheSupportedRange() {
        assertThat(wallTimes(recurrence("FREQ=DAILY;BYHOUR=9,23", "9999-12-29T09:00", "Pacific/Kiritimati", SHIFT),
                10)).containsExactly("9999-12-29T09:00", "9999-12-29T23:00", "9999-12-30T09:00", "9999-12-30T23:00");
        // 31 December 9999 would be within UNTIL, but is past the range
        assertThat(wallTimes(recurrence("FREQ=MONTHLY;UNTIL=99991231", "9999-10-31T09:00", "Etc/GMT+12", SHIFT),
                10)).containsExactly("9999-10-31T09:00");
    }

    @ParameterizedTest
    @CsvSource({"DAILY", "WEEKLY", "MONTHLY"})
    void aHugeIntervalEndsWithoutOverflow(String frequency) {
        Recurrence recurrence = recurrence("FREQ=" + frequency + ";INTERVAL=2147483647", "2026-01-31T09:00",
                "Europe/Berlin", SHIFT);

        assertThat(wallTimes(recurrence, 10)).containsExactly("2026-01-31T09:00");
    }

    @Test
    void resumingAfterAnOccurrenceGivesWhatIterationFromTheStartGives() {
        List<Recurrence> recurrences = List.of(
                recurrence("FREQ=DAILY;BYHOUR=8,9;COUNT=20", "2011-12-27T08:00", "Pacific/Apia", SHIFT),
                recurrence("FREQ=DAILY;BYHOUR=2,3;BYMINUTE=0,30", "2026-03-07T02:00", "America/New_York", SHIFT),
                recurrence("FREQ=DAILY;BYHOUR=2,3;BYMINUTE=0,30", "2026-03-07T02:00", "America/New_York", SKIP),
                recurrence("FREQ=DAILY;BYHOUR=0,23;BYMINUTE=15,30", "2026-03-27T00:15", "America/Nuuk", SHIFT),
                recurrence("FREQ=DAILY;BYHOUR=2;BYMINUTE=15,40", "2026-10-02T02:15", "Australia/Lord_Howe", SHIFT),
                recurrence("FREQ=DAILY;BYHOUR=1;BYMINUTE=0,30", "2026-10-31T01:00", "America/New_York",
                        new DstPolicy(Gap.SHIFT, Overlap.LAST)),
                recurrence("FREQ=WEEKLY;BYDAY=MO", "2026-01-06T09:00", "Europe/Berlin", SHIFT),
                recurrence("FREQ=MONTHLY;BYDAY=-1FR;COUNT=7", "2024-01-26T09:00", "Europe/Berlin", SHIFT));
        for (Recurrence recurrence : recurrences) {
            List<Occurrence> all = recurrence.stream().limit(30).toList();
            for (Occurrence occurrence : all) {
                assertThat(recurrence.after(occurrence.number(), occurrence.wallTime()).limit(30 - occurrence.number()))
                        .as("%s after %s", recurrence, occurrence)
                        .containsExactlyElementsOf(all.subList(occurrence.number(), all.size()));
            }
        }
    }

    @Test
    void resumingAfterTheLastCountedOccurrenceGivesNothing() {
        Recurrence recurrence = recurrence("FREQ=DAILY;COUNT=3", "2026-01-01T09:00", "Europe/Berlin", SHIFT);

        assertThat(recurrence.after(3, LocalDateTime.parse("2026-01-03T09:00"))).isEmpty();
        assertThat(recurrence.after(2, LocalDateTime.parse("2026-01-02T09:00")).map(Occurrence::number))
                .containsExactly(3);
    }

    @Test
    void resumingRefusesWhatCannotHaveBeenAnOccurrence() {
        Recurrence skipping = recurrence("FREQ=DAILY", "2026-03-06T02:30", "America/New_York", SKIP);

        assertThatThrownBy(() -> skipping.after(3, LocalDateTime.parse("2026-03-08T02:30")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("does not exist");
        assertThatThrownBy(() -> skipping.after(0, LocalDateTime.parse("2026-03-06T02:30")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("start at 1");
        assertThatThrownBy(() -> skipping.after(1, LocalDateTime.parse("2026-03-05T02:30")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("before the start");
    }

    @Test
    void fromAnInstantNumbersAsFromTheStart() {
        Recurrence recurrence = recurrence("FREQ=DAILY", "2026-03-06T02:30", "America/New_York", SKIP);

        assertThat(recurrence.from(Instant.parse("2026-03-08T00:00:00Z")).limit(2).map(Occurrences::line))
                .containsExactly(
                        "3 2026-03-09T02:30 2026-03-09T06:30:00Z 2026-03-09T02:30-04:00 -",
                        "4 2026-03-10T02:30 2026-03-10T06:30:00Z 2026-03-10T02:30-04:00 -");
        // inclusive
        assertThat(recurrence.from(Instant.parse("2026-03-09T06:30:00Z")).findFirst()).get()
                .extracting(Occurrence::number).isEqualTo(3);
        assertThat(recurrence.from(Instant.parse("2026-03-09T06:30:01Z")).findFirst()).get()
                .extracting(Occurrence::number).isEqualTo(4);
        assertThat(recurrence("FREQ=DAILY;COUNT=2", "2026-03-06T02:30", "America/New_York", SKIP)
                .from(Instant.parse("2026-03-08T00:00:00Z"))).isEmpty();
    }
}
