package dev.tickler.testing;

import java.time.DayOfWeek;
import java.time.Instant;
import java.time.LocalDate;
import java.time.Month;
import java.time.Period;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.time.temporal.TemporalAdjusters;

/**
 * Dates for tests on the real clock, computed from today so that the calendar never overtakes them. Every one lies at
 * least a year ahead, which also keeps what a test registers for it beyond the hand-off window (parked, pending). A
 * test that needs a particular kind of day (in winter, on a DST change) asks for the next such day that far ahead.
 * Compute a date once per test and derive the others from it: two calls around midnight may answer different days.
 */
public final class FutureDates {

    /** How far ahead every date here lies at least. */
    public static final Period AT_LEAST = Period.ofYears(1);

    private FutureDates() {
    }

    /** A day a year and a day from today (UTC). */
    public static LocalDate day() {
        return LocalDate.now(ZoneOffset.UTC).plus(AT_LEAST).plusDays(1);
    }

    /** The instant of that day at that hour, UTC. */
    public static Instant at(LocalDate day, int hour) {
        return day.atTime(hour, 0).toInstant(ZoneOffset.UTC);
    }

    /** The next day with this month and day of the month, at least a year ahead. */
    public static LocalDate next(Month month, int dayOfMonth) {
        LocalDate earliest = day();
        LocalDate candidate = LocalDate.of(earliest.getYear(), month, dayOfMonth);
        return candidate.isBefore(earliest) ? LocalDate.of(earliest.getYear() + 1, month, dayOfMonth) : candidate;
    }

    /**
     * The next last Sunday of the month, at least a year ahead: in the EU (Europe/Berlin) summer time begins on the
     * last Sunday of March (02:00 becomes 03:00) and ends on the last Sunday of October (03:00 becomes 02:00).
     */
    public static LocalDate lastSundayOf(Month month) {
        LocalDate earliest = day();
        for (int year = earliest.getYear(); ; year++) {
            LocalDate sunday = YearMonth.of(year, month).atEndOfMonth()
                    .with(TemporalAdjusters.previousOrSame(DayOfWeek.SUNDAY));
            if (!sunday.isBefore(earliest)) {
                return sunday;
            }
        }
    }
}
