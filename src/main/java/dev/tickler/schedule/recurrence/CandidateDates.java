package dev.tickler.schedule.recurrence;

import java.time.DayOfWeek;
import java.time.LocalDate;
import java.time.YearMonth;
import java.time.temporal.ChronoUnit;
import java.time.temporal.TemporalAdjusters;
import java.util.ArrayList;
import java.util.List;

/**
 * The dates a rule selects, in increasing order, read period by period (a day, an ISO week from Monday, or a
 * month; every INTERVAL-th period counted from the start's). Pure calendar: times of day and DST come later.
 *
 * <p>A rule whose calendar part can never match again (e.g. the 31st every 12 months from a February) would search
 * forever, so the dates end after {@value #MAX_EMPTY_PERIODS} examined periods in a row without a date. For months
 * that is a whole 400-year Gregorian cycle, so a monthly rule is only cut off when it can never match again; every
 * week has a date; and a daily rule that can match at all (weekdays and days of the month) does so long before.
 */
final class CandidateDates {

    static final int MAX_EMPTY_PERIODS = 4800;

    private final Frequency frequency;
    private final long interval;
    private final LocalDate startDate;
    private final LocalDate from;
    private final LocalDate last;
    private final boolean byDay;
    private final boolean byMonthDay;
    private final boolean[] weekdays = new boolean[8];
    private final List<ByDay> ordinalDays = new ArrayList<>();
    private final boolean[] monthDays = new boolean[32];
    private final boolean[] monthDaysFromEnd = new boolean[32];

    private long period;
    private int emptyRun;
    private List<LocalDate> dates;
    private int index;
    private boolean done;

    /**
     * The dates from {@code from} (not before the start's date) to {@code last}; periods are counted from the
     * period of {@code startDate}, whatever {@code from} is, so that reading from a later date gives the same dates.
     */
    CandidateDates(RecurrenceRule rule, LocalDate startDate, LocalDate from, LocalDate last) {
        this.frequency = rule.frequency();
        this.interval = rule.interval();
        this.startDate = startDate;
        this.from = from;
        this.last = last;
        this.byDay = !rule.byDay().isEmpty();
        this.byMonthDay = !rule.byMonthDay().isEmpty();
        if (!byDay && frequency == Frequency.WEEKLY) {
            weekdays[startDate.getDayOfWeek().getValue()] = true;
        }
        for (ByDay day : rule.byDay()) {
            if (day.ordinal() == 0) {
                weekdays[day.day().getValue()] = true;
            } else {
                ordinalDays.add(day);
            }
        }
        for (int day : rule.byMonthDay()) {
            if (day > 0) {
                monthDays[day] = true;
            } else {
                monthDaysFromEnd[-day] = true;
            }
        }
        long first = periodIndex(from);
        this.period = (first + interval - 1) / interval * interval;
    }

    /** The next date, or null when there are no more. */
    LocalDate peek() {
        fill();
        return done ? null : dates.get(index);
    }

    /** Returns the next date and moves past it, or null when there are no more. */
    LocalDate next() {
        LocalDate next = peek();
        index++;
        return next;
    }

    private void fill() {
        while (!done && (dates == null || index >= dates.size())) {
            if (dates != null) {
                period += interval;
            }
            LocalDate periodStart = periodStart(period);
            if (periodStart.isAfter(last)) {
                done = true;
                return;
            }
            List<LocalDate> all = datesOf(periodStart);
            // emptiness is judged on the whole period, not the part from `from` on, so that it does not depend on
            // where reading began
            emptyRun = all.isEmpty() ? emptyRun + 1 : 0;
            if (emptyRun >= MAX_EMPTY_PERIODS) {
                done = true;
                return;
            }
            dates = within(all);
            index = 0;
        }
    }

    private List<LocalDate> within(List<LocalDate> all) {
        if (all.isEmpty() || !all.get(0).isBefore(from) && !all.get(all.size() - 1).isAfter(last)) {
            return all;
        }
        List<LocalDate> within = new ArrayList<>(all.size());
        for (LocalDate date : all) {
            if (!date.isBefore(from) && !date.isAfter(last)) {
                within.add(date);
            }
        }
        return within;
    }

    private long periodIndex(LocalDate date) {
        return switch (frequency) {
            case DAILY -> ChronoUnit.DAYS.between(startDate, date);
            case WEEKLY -> ChronoUnit.WEEKS.between(monday(startDate), monday(date));
            case MONTHLY -> ChronoUnit.MONTHS.between(YearMonth.from(startDate), YearMonth.from(date));
        };
    }

    private LocalDate periodStart(long index) {
        return switch (frequency) {
            case DAILY -> startDate.plusDays(index);
            case WEEKLY -> monday(startDate).plusWeeks(index);
            case MONTHLY -> YearMonth.from(startDate).plusMonths(index).atDay(1);
        };
    }

    private static LocalDate monday(LocalDate date) {
        return date.with(TemporalAdjusters.previousOrSame(DayOfWeek.MONDAY));
    }

    private List<LocalDate> datesOf(LocalDate periodStart) {
        return switch (frequency) {
            case DAILY -> dayMatches(periodStart) && monthDayMatches(periodStart)
                    ? List.of(periodStart) : List.of();
            case WEEKLY -> week(periodStart);
            case MONTHLY -> month(YearMonth.from(periodStart));
        };
    }

    private List<LocalDate> week(LocalDate monday) {
        List<LocalDate> week = new ArrayList<>(7);
        for (int day = 0; day < 7; day++) {
            LocalDate date = monday.plusDays(day);
            if (weekdays[date.getDayOfWeek().getValue()]) {
                week.add(date);
            }
        }
        return week;
    }

    private List<LocalDate> month(YearMonth month) {
        if (!byDay && !byMonthDay) {
            // a month without the start's day of month has no occurrence (RFC 5545: invalid dates are ignored)
            int day = startDate.getDayOfMonth();
            return day <= month.lengthOfMonth() ? List.of(month.atDay(day)) : List.of();
        }
        // day by day with plain arithmetic: a rule that rarely matches scans thousands of months
        int length = month.lengthOfMonth();
        int firstWeekday = month.atDay(1).getDayOfWeek().getValue();
        List<LocalDate> dates = new ArrayList<>();
        for (int day = 1; day <= length; day++) {
            int weekday = (firstWeekday + day - 2) % 7 + 1;
            if (dayMatches(day, weekday, length) && monthDayMatches(day, length)) {
                dates.add(month.atDay(day));
            }
        }
        return dates;
    }

    /** BYDAY holds for the date, or is absent. */
    private boolean dayMatches(LocalDate date) {
        return dayMatches(date.getDayOfMonth(), date.getDayOfWeek().getValue(), date.lengthOfMonth());
    }

    private boolean dayMatches(int day, int weekday, int length) {
        if (!byDay || weekdays[weekday]) {
            return true;
        }
        int fromStart = (day - 1) / 7 + 1;
        int fromEnd = -((length - day) / 7 + 1);
        for (ByDay byDay : ordinalDays) {
            if (byDay.day().getValue() == weekday && (byDay.ordinal() == fromStart || byDay.ordinal() == fromEnd)) {
                return true;
            }
        }
        return false;
    }

    /** BYMONTHDAY holds for the date, or is absent. */
    private boolean monthDayMatches(LocalDate date) {
        return monthDayMatches(date.getDayOfMonth(), date.lengthOfMonth());
    }

    private boolean monthDayMatches(int day, int length) {
        return !byMonthDay || monthDays[day] || monthDaysFromEnd[length - day + 1];
    }
}
