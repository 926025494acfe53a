package dev.tickler.schedule.recurrence;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZonedDateTime;

/**
 * One occurrence of a schedule: its number (from 1), the rule's wall time, the instant it fires, that instant as
 * seen in the schedule's zone (differs from the wall time only when the wall time was shifted out of a gap), and
 * how DST was resolved ({@code null} when unambiguous).
 */
public record Occurrence(int number, LocalDateTime wallTime, Instant instant, ZonedDateTime local, DstNote note) {
}
