/**
 * Recurring reminders: a schedule is a rule evaluated in local time in its zone (the engine is in
 * {@code dev.tickler.schedule.recurrence}), and each occurrence is an ordinary reminder carrying {@code schedule_id} and
 * {@code occurrence}. A schedule keeps its next two unfinished occurrences as reminders;
 * {@link dev.tickler.schedule.OccurrencePlan} decides what a top-up creates (catch-up included) and
 * {@link dev.tickler.schedule.ScheduleTopUp} writes it. docs/schedules.md has the rules and the choices.
 */
package dev.tickler.schedule;
