package dev.tickler.schedule.rest;

import java.time.DateTimeException;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;

import dev.tickler.problem.FieldError;
import dev.tickler.time.ReminderTiming;
import dev.tickler.db.WireNamed;
import dev.tickler.schedule.CatchUp;
import dev.tickler.schedule.recurrence.DstPolicy;
import dev.tickler.schedule.recurrence.InvalidRecurrenceException;
import dev.tickler.schedule.recurrence.Recurrence;
import dev.tickler.schedule.recurrence.RecurrenceRule;

/**
 * The fields a schedule's creation and PATCH share, and their rules: each problem names its field (dst's as
 * dst.gap and dst.overlap). tz and expires_after follow the reminders' rules.
 */
interface ScheduleFields {

    /** The API document's words for the fields. */
    String EXPIRES_AFTER = "An ISO-8601 duration such as PT2H, as for a reminder: each occurrence expires when not"
            + " delivered by its fire_at plus this";
    String TZ = "The IANA time zone the rule is evaluated in, e.g. Europe/Berlin";
    String START = "The first occurrence's local date-time, to the second, without offset, e.g. 2030-12-01T09:00";
    String RRULE = "An RFC 5545 recurrence rule, e.g. FREQ=WEEKLY;BYDAY=MO,WE,FR";
    String CATCH_UP = "What occurrences missed while paused do on resume: all, latest or none; latest when left out";

    String tz();

    String start();

    String rrule();

    DstFields dst();

    String catchUp();

    String expiresAfter();

    /** What is wrong with the fields; {@code required} says tz, start and rrule must be there (creation). */
    default List<FieldError> problems(boolean required) {
        List<FieldError> problems = new ArrayList<>();
        if (required && tz() == null) {
            problems.add(new FieldError("tz",
                    "is required: the IANA time zone the rule is evaluated in, e.g. Europe/Berlin"));
        }
        problems.addAll(ReminderTiming.problems(null, null, tz(), expiresAfter(), false));
        if (start() != null && parseStart(start()) == null) {
            problems.add(new FieldError("start", "must be a local date-time to the second without offset, from "
                    + "1970-01-01T00:00:00 to 9999-12-30T23:59:59, e.g. 2026-12-01T09:00"));
        } else if (required && start() == null) {
            problems.add(new FieldError("start",
                    "is required: the first occurrence's local date-time, e.g. 2026-12-01T09:00"));
        }
        if (rrule() != null) {
            try {
                RecurrenceRule.parse(rrule());
            } catch (InvalidRecurrenceException e) {
                problems.add(new FieldError("rrule", e.getMessage()));
            }
        } else if (required) {
            problems.add(new FieldError("rrule", "is required, e.g. FREQ=WEEKLY;BYDAY=MO,WE,FR"));
        }
        if (dst() != null) {
            if (dst().gap() != null && DstPolicy.Gap.fromWireName(dst().gap()).isEmpty()) {
                problems.add(new FieldError("dst.gap", "must be shift or skip"));
            }
            if (dst().overlap() != null && DstPolicy.Overlap.fromWireName(dst().overlap()).isEmpty()) {
                problems.add(new FieldError("dst.overlap", "must be first or last"));
            }
        }
        if (catchUp() != null && WireNamed.find(CatchUp.class, catchUp()).isEmpty()) {
            problems.add(new FieldError("catch_up", "must be all, latest or none"));
        }
        return problems;
    }

    /** A local date-time to the second (seconds may be left out), within the range schedules support; else null. */
    static LocalDateTime parseStart(String text) {
        try {
            LocalDateTime start = LocalDateTime.parse(text, DateTimeFormatter.ISO_LOCAL_DATE_TIME);
            if (start.getNano() != 0 || start.isBefore(Recurrence.EARLIEST) || start.isAfter(Recurrence.LATEST)) {
                return null;
            }
            return start;
        } catch (DateTimeException e) {
            return null;
        }
    }
}
