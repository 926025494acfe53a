package dev.tickler.schedule.recurrence;

/** The supported RRULE frequencies. */
public enum Frequency {
    DAILY, WEEKLY, MONTHLY
}
