package dev.tickler.schedule.recurrence;

import static dev.tickler.schedule.recurrence.Occurrences.lines;
import static dev.tickler.schedule.recurrence.Occurrences.recurrence;
import static dev.tickler.schedule.recurrence.Occurrences.wallTimes;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

/** Which wall times a rule selects (RFC 5545 semantics within the subset), away from any DST transition. */
class RecurrenceCalendarTest {

    private static List<String> expand(String rrule, String start, int limit) {
        return wallTimes(recurrence(rrule, start, "Europe/Berlin", DstPolicy.DEFAULT), limit);
    }

    @Test
    void daily() {
        assertThat(lines(recurrence("FREQ=DAILY", "2026-12-01T09:00", "Europe/Berlin", DstPolicy.DEFAULT), 3))
                .containsExactly(
                        "1 2026-12-01T09:00 2026-12-01T08:00:00Z 2026-12-01T09:00+01:00 -",
                        "2 2026-12-02T09:00 2026-12-02T08:00:00Z 2026-12-02T09:00+01:00 -",
                        "3 2026-12-03T09:00 2026-12-03T08:00:00Z 2026-12-03T09:00+01:00 -");
        assertThat(expand("FREQ=DAILY;INTERVAL=3", "2026-12-30T09:00:07", 3))
                .containsExactly("2026-12-30T09:00:07", "2027-01-02T09:00:07", "2027-01-05T09:00:07");
    }

    @Test
    void dailyWithHoursAndMinutesExpandsWithinEachDay() {
        assertThat(expand("FREQ=DAILY;BYHOUR=9,17;BYMINUTE=0,30", "2026-01-05T09:00", 9)).containsExactly(
                "2026-01-05T09:00", "2026-01-05T09:30", "2026-01-05T17:00", "2026-01-05T17:30",
                "2026-01-06T09:00", "2026-01-06T09:30", "2026-01-06T17:00", "2026-01-06T17:30",
                "2026-01-07T09:00");
    }

    @Test
    void theStartCountsFirstEvenOffTheRuleAndLendsItsSeconds() {
        assertThat(expand("FREQ=DAILY;BYHOUR=9,17;BYMINUTE=0,30", "2026-01-05T12:00:15", 5)).containsExactly(
                "2026-01-05T12:00:15", "2026-01-05T17:00:15", "2026-01-05T17:30:15",
                "2026-01-06T09:00:15", "2026-01-06T09:30:15");
        // hour from the rule, minute from the start, and the other way round
        assertThat(expand("FREQ=DAILY;BYHOUR=8", "2026-01-05T12:45", 3))
                .containsExactly("2026-01-05T12:45", "2026-01-06T08:45", "2026-01-07T08:45");
        assertThat(expand("FREQ=DAILY;BYMINUTE=5", "2026-01-05T12:45", 3))
                .containsExactly("2026-01-05T12:45", "2026-01-06T12:05", "2026-01-07T12:05");
        assertThat(expand("FREQ=WEEKLY;BYDAY=MO", "2026-01-06T09:00", 3))
                .containsExactly("2026-01-06T09:00", "2026-01-12T09:00", "2026-01-19T09:00");
    }

    @Test
    void dailyWithWeekdaysOrMonthDaysFilters() {
        assertThat(expand("FREQ=DAILY;BYDAY=MO,FR", "2026-01-05T09:00", 5)).containsExactly(
                "2026-01-05T09:00", "2026-01-09T09:00", "2026-01-12T09:00", "2026-01-16T09:00", "2026-01-19T09:00");
        assertThat(expand("FREQ=DAILY;BYMONTHDAY=1,15", "2026-01-15T09:00", 5)).containsExactly(
                "2026-01-15T09:00", "2026-02-01T09:00", "2026-02-15T09:00", "2026-03-01T09:00", "2026-03-15T09:00");
        // the filter applies to the days INTERVAL picks: every other day from 5 Jan, Mondays and Fridays only
        assertThat(expand("FREQ=DAILY;INTERVAL=2;BYDAY=MO,FR", "2026-01-05T09:00", 4)).containsExactly(
                "2026-01-05T09:00", "2026-01-09T09:00", "2026-01-19T09:00", "2026-01-23T09:00");
    }

    @Test
    void weeklyUsesTheStartsWeekdayWithoutByDay() {
        assertThat(expand("FREQ=WEEKLY", "2026-01-07T09:00", 3))
                .containsExactly("2026-01-07T09:00", "2026-01-14T09:00", "2026-01-21T09:00");
    }

    @Test
    void weeklyEveryOtherWeekOnMondayWednesdayAndFriday() {
        assertThat(expand("FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,WE,FR", "2026-01-05T09:00", 9)).containsExactly(
                "2026-01-05T09:00", "2026-01-07T09:00", "2026-01-09T09:00",
                "2026-01-19T09:00", "2026-01-21T09:00", "2026-01-23T09:00",
                "2026-02-02T09:00", "2026-02-04T09:00", "2026-02-06T09:00");
        // weeks run from Monday, so a Wednesday start is in the week of 5 Jan
        assertThat(expand("FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,WE,FR", "2026-01-07T09:00", 6)).containsExactly(
                "2026-01-07T09:00", "2026-01-09T09:00",
                "2026-01-19T09:00", "2026-01-21T09:00", "2026-01-23T09:00", "2026-02-02T09:00");
        // a Sunday start belongs to the week that began the Monday before
        assertThat(expand("FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,SU", "2026-01-11T09:00", 4)).containsExactly(
                "2026-01-11T09:00", "2026-01-19T09:00", "2026-01-25T09:00", "2026-02-02T09:00");
    }

    @Test
    void lastFridayOfTheMonthInShortMonths() {
        assertThat(expand("FREQ=MONTHLY;BYDAY=-1FR", "2024-01-26T09:00", 26)).containsExactly(
                "2024-01-26T09:00", "2024-02-23T09:00", "2024-03-29T09:00", "2024-04-26T09:00",
                "2024-05-31T09:00", "2024-06-28T09:00", "2024-07-26T09:00", "2024-08-30T09:00",
                "2024-09-27T09:00", "2024-10-25T09:00", "2024-11-29T09:00", "2024-12-27T09:00",
                "2025-01-31T09:00", "2025-02-28T09:00", "2025-03-28T09:00", "2025-04-25T09:00",
                "2025-05-30T09:00", "2025-06-27T09:00", "2025-07-25T09:00", "2025-08-29T09:00",
                "2025-09-26T09:00", "2025-10-31T09:00", "2025-11-28T09:00", "2025-12-26T09:00",
                "2026-01-30T09:00", "2026-02-27T09:00");
    }

    @Test
    void secondAndFourthMonday() {
        assertThat(expand("FREQ=MONTHLY;BYDAY=2MO,4MO", "2026-01-12T09:00", 8)).containsExactly(
                "2026-01-12T09:00", "2026-01-26T09:00", "2026-02-09T09:00", "2026-02-23T09:00",
                "2026-03-09T09:00", "2026-03-23T09:00", "2026-04-13T09:00", "2026-04-27T09:00");
    }

    @Test
    void monthlyWeekdaysWithAndWithoutOrdinal() {
        assertThat(expand("FREQ=MONTHLY;BYDAY=MO", "2026-02-02T09:00", 6)).containsExactly(
                "2026-02-02T09:00", "2026-02-09T09:00", "2026-02-16T09:00", "2026-02-23T09:00",
                "2026-03-02T09:00", "2026-03-09T09:00");
        // only months with a fifth Monday, or a fifth-from-last Sunday
        assertThat(expand("FREQ=MONTHLY;BYDAY=5MO", "2026-03-30T09:00", 4)).containsExactly(
                "2026-03-30T09:00", "2026-06-29T09:00", "2026-08-31T09:00", "2026-11-30T09:00");
        assertThat(expand("FREQ=MONTHLY;BYDAY=-5SU", "2026-03-01T09:00", 4)).containsExactly(
                "2026-03-01T09:00", "2026-05-03T09:00", "2026-08-02T09:00", "2026-11-01T09:00");
    }

    @Test
    void theThirtyFirstOnlyInMonthsThatHaveOne() {
        List<String> expected = List.of(
                "2026-01-31T09:00", "2026-03-31T09:00", "2026-05-31T09:00", "2026-07-31T09:00",
                "2026-08-31T09:00", "2026-10-31T09:00", "2026-12-31T09:00", "2027-01-31T09:00");
        assertThat(expand("FREQ=MONTHLY;BYMONTHDAY=31", "2026-01-31T09:00", 8)).isEqualTo(expected);
        assertThat(expand("FREQ=MONTHLY", "2026-01-31T09:00", 8)).isEqualTo(expected);
        // not moved to the 30th: 30 February does not exist either
        assertThat(expand("FREQ=MONTHLY", "2026-01-30T09:00", 3))
                .containsExactly("2026-01-30T09:00", "2026-03-30T09:00", "2026-04-30T09:00");
    }

    @Test
    void theLastDayOfEveryMonth() {
        assertThat(expand("FREQ=MONTHLY;BYMONTHDAY=-1", "2026-01-31T09:00", 8)).containsExactly(
                "2026-01-31T09:00", "2026-02-28T09:00", "2026-03-31T09:00", "2026-04-30T09:00",
                "2026-05-31T09:00", "2026-06-30T09:00", "2026-07-31T09:00", "2026-08-31T09:00");
        assertThat(expand("FREQ=MONTHLY;BYMONTHDAY=-1", "2027-11-30T09:00", 6)).containsExactly(
                "2027-11-30T09:00", "2027-12-31T09:00", "2028-01-31T09:00", "2028-02-29T09:00",
                "2028-03-31T09:00", "2028-04-30T09:00");
    }

    @Test
    void monthDayAndWeekdayMustBothHold() {
        assertThat(expand("FREQ=MONTHLY;BYMONTHDAY=31;BYDAY=FR", "2025-10-31T09:00", 5)).containsExactly(
                "2025-10-31T09:00", "2026-07-31T09:00", "2027-12-31T09:00", "2028-03-31T09:00", "2029-08-31T09:00");
        // the first Friday, in months where it falls within the first five days
        assertThat(expand("FREQ=MONTHLY;BYMONTHDAY=1,2,3,4,5;BYDAY=1FR", "2026-01-02T09:00", 3))
                .containsExactly("2026-01-02T09:00", "2026-04-03T09:00", "2026-05-01T09:00");
    }

    @Test
    void everyThirdMonth() {
        assertThat(expand("FREQ=MONTHLY;INTERVAL=3", "2026-01-15T09:00", 5)).containsExactly(
                "2026-01-15T09:00", "2026-04-15T09:00", "2026-07-15T09:00", "2026-10-15T09:00", "2027-01-15T09:00");
        assertThat(expand("FREQ=MONTHLY;INTERVAL=3", "2026-01-31T09:00", 5)).containsExactly(
                "2026-01-31T09:00", "2026-07-31T09:00", "2026-10-31T09:00", "2027-01-31T09:00", "2027-07-31T09:00");
    }

    @Test
    void candidatesBeforeTheStartInItsPeriodAreNotOccurrences() {
        assertThat(expand("FREQ=MONTHLY;BYMONTHDAY=1,20", "2026-01-10T09:00", 3))
                .containsExactly("2026-01-10T09:00", "2026-01-20T09:00", "2026-02-01T09:00");
        assertThat(expand("FREQ=DAILY;BYHOUR=8,10", "2026-01-10T09:00", 3))
                .containsExactly("2026-01-10T09:00", "2026-01-10T10:00", "2026-01-11T08:00");
    }
}
