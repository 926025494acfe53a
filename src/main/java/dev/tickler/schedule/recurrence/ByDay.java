package dev.tickler.schedule.recurrence;

import java.time.DayOfWeek;
import java.util.Comparator;

/** One BYDAY item: a weekday, with an ordinal within the month (1..5, -5..-1) or 0 for every such weekday. */
record ByDay(int ordinal, DayOfWeek day) {

    static final Comparator<ByDay> CANONICAL_ORDER =
            Comparator.comparing(ByDay::day).thenComparingInt(ByDay::ordinal);

    @Override
    public String toString() {
        String code = day.name().substring(0, 2);
        return ordinal == 0 ? code : ordinal + code;
    }
}
