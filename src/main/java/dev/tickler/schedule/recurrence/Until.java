package dev.tickler.schedule.recurrence;

import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/** The UNTIL part in one of its three forms: a local date, a local date-time, or a UTC instant; all inclusive. */
record Until(Form form, LocalDateTime value) {

    enum Form { DATE, LOCAL_DATE_TIME, UTC }

    private static final DateTimeFormatter DATE = DateTimeFormatter.ofPattern("uuuuMMdd");
    private static final DateTimeFormatter DATE_TIME = DateTimeFormatter.ofPattern("uuuuMMdd'T'HHmmss");

    /** The last wall time allowed, or null when the bound is on instants. */
    LocalDateTime lastWallTime() {
        return switch (form) {
            case DATE -> value.toLocalDate().atTime(LocalTime.MAX);
            case LOCAL_DATE_TIME -> value;
            case UTC -> null;
        };
    }

    /** The last instant allowed, or null when the bound is on wall times. */
    Instant lastInstant() {
        return form == Form.UTC ? value.toInstant(ZoneOffset.UTC) : null;
    }

    /** No wall time on a later date can satisfy this bound in any zone (offsets are within ±18 hours). */
    LocalDate lastPossibleDate() {
        return form == Form.UTC ? value.plusHours(18).toLocalDate() : value.toLocalDate();
    }

    @Override
    public String toString() {
        return switch (form) {
            case DATE -> DATE.format(value);
            case LOCAL_DATE_TIME -> DATE_TIME.format(value);
            case UTC -> DATE_TIME.format(value) + "Z";
        };
    }
}
