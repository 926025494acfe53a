package dev.tickler.schedule;

import java.time.LocalDateTime;
import java.time.ZoneId;

import dev.tickler.schedule.recurrence.DstPolicy;
import dev.tickler.schedule.recurrence.Recurrence;
import dev.tickler.schedule.recurrence.RecurrenceRule;

/** When a schedule's occurrences fall: the rule from its start, in local time in its zone, under its DST policy. */
public record ScheduleDefinition(LocalDateTime start, String tz, RecurrenceRule rule, DstPolicy dst) {

    public Recurrence recurrence() {
        return Recurrence.of(start, ZoneId.of(tz), rule, dst);
    }
}
