package dev.tickler.operator;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;

import dev.tickler.problem.FieldError;
import dev.tickler.time.ReminderTiming;

/**
 * The fire_from (inclusive) and fire_to (exclusive) bounds of an operator filter as sent, read under the rules of
 * registration: ISO-8601 instants with an offset, in the supported range, the second after the first. Shared by the
 * operator API and the console's dead-letter filter.
 */
public record FireWindow(Instant from, Instant to) {

    /** The window these values name; a value that names none adds its error and is left out. Null means unbounded. */
    public static FireWindow of(String fireFrom, String fireTo, List<FieldError> errors) {
        Instant from = instant("fire_from", fireFrom, errors);
        Instant to = instant("fire_to", fireTo, errors);
        if (from != null && to != null && !to.isAfter(from)) {
            errors.add(new FieldError("fire_to", "must be after fire_from"));
        }
        return new FireWindow(from, to);
    }

    /** Rounded up to the microsecond, Postgres's precision, which keeps an inclusive and an exclusive bound exact. */
    private static Instant instant(String field, String value, List<FieldError> errors) {
        if (value == null) {
            return null;
        }
        Instant instant = ReminderTiming.parseInstant(value);
        if (instant == null) {
            errors.add(new FieldError(field, "must be an ISO-8601 instant with an offset, e.g. 2026-12-01T08:00:00Z"));
            return null;
        }
        if (!ReminderTiming.isSupported(instant)) {
            errors.add(new FieldError(field, "must be " + ReminderTiming.RANGE));
            return null;
        }
        Instant micros = instant.truncatedTo(ChronoUnit.MICROS);
        return micros.equals(instant) ? instant : micros.plus(1, ChronoUnit.MICROS);
    }
}
