package dev.tickler.schedule;

import java.time.Duration;
import java.time.LocalDateTime;
import java.util.Map;

import dev.tickler.schedule.recurrence.DstPolicy;
import dev.tickler.schedule.recurrence.RecurrenceRule;

/** A validated PATCH /v1/schedules/{id}; null means "keep" (the two DST parts each on their own). */
public record ScheduleChange(RecurrenceRule rule, LocalDateTime start, String tz, DstPolicy.Gap gap,
        DstPolicy.Overlap overlap, CatchUp catchUp, Map<String, Object> data, Duration expiresAfter) {

    /** Whether the change moves the occurrences in time (and so starts the rule afresh from the moment of change). */
    public boolean changesTiming() {
        return rule != null || start != null || tz != null || gap != null || overlap != null;
    }

    /** The stored definition with this change applied. */
    public ScheduleDefinition applyTo(ScheduleDefinition definition) {
        return new ScheduleDefinition(start != null ? start : definition.start(), tz != null ? tz : definition.tz(),
                rule != null ? rule : definition.rule(), new DstPolicy(gap != null ? gap : definition.dst().gap(),
                        overlap != null ? overlap : definition.dst().overlap()));
    }
}
