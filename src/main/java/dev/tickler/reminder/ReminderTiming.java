package dev.tickler.reminder;

import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.time.zone.ZoneRulesProvider;
import java.util.ArrayList;
import java.util.List;

import dev.tickler.problem.FieldError;

/**
 * The rules for when a reminder fires (SPEC §3): an instant with an offset, or a wall-clock time in an IANA zone
 * where a time in a DST gap moves forward by the gap and one in an overlap takes the earlier offset.
 */
public final class ReminderTiming {

    public static final ZoneId DEFAULT_ZONE = ZoneId.of("UTC");

    private ReminderTiming() {
    }

    /** What is wrong with the given timing fields; {@code whenRequired} says one of fire_at or local_time must be there. */
    public static List<FieldError> problems(String fireAt, String localTime, String tz, String expiresAfter,
            boolean whenRequired) {
        List<FieldError> problems = new ArrayList<>();
        if (fireAt != null && localTime != null) {
            problems.add(new FieldError("fire_at", "give either fire_at or local_time with tz, not both"));
        } else if (fireAt == null && localTime == null && whenRequired) {
            problems.add(new FieldError("fire_at", "one of fire_at or local_time with tz is required"));
        }
        if (fireAt != null && parseInstant(fireAt) == null) {
            problems.add(new FieldError("fire_at", "must be an ISO-8601 instant with an offset, e.g. 2026-12-01T08:00:00Z"));
        }
        if (localTime != null && parseLocal(localTime) == null) {
            problems.add(new FieldError("local_time", "must be an ISO-8601 wall-clock time without offset, e.g. 2026-12-01T09:00"));
        }
        if (tz != null && !isZoneId(tz)) {
            problems.add(new FieldError("tz", "must be an IANA time zone id, e.g. Europe/Berlin"));
        }
        if (expiresAfter != null && parseDuration(expiresAfter) == null) {
            problems.add(new FieldError("expires_after", "must be a positive ISO-8601 duration, e.g. PT6H or P1D"));
        }
        return problems;
    }

    /** The instant a valid fire_at or local_time names; local times are read in {@code zone}. */
    public static Instant fireAt(String fireAt, String localTime, ZoneId zone) {
        Instant instant = fireAt != null ? parseInstant(fireAt) : ZonedDateTime.of(parseLocal(localTime), zone).toInstant();
        // Postgres keeps microseconds; truncating here keeps the idempotency lookup exact.
        return instant.truncatedTo(ChronoUnit.MICROS);
    }

    public static ZoneId zone(String tz) {
        return ZoneId.of(tz);
    }

    public static Duration expiresAfter(String expiresAfter) {
        return parseDuration(expiresAfter);
    }

    /** fire_at as the wall clock of the reminder's zone, e.g. 2026-12-01T09:00:00+01:00. */
    public static String renderLocal(Instant fireAt, String tz) {
        return fireAt.atZone(ZoneId.of(tz)).toOffsetDateTime().format(DateTimeFormatter.ISO_OFFSET_DATE_TIME);
    }

    private static Instant parseInstant(String text) {
        try {
            return OffsetDateTime.parse(text, DateTimeFormatter.ISO_OFFSET_DATE_TIME).toInstant();
        } catch (DateTimeParseException e) {
            return null;
        }
    }

    private static LocalDateTime parseLocal(String text) {
        try {
            return LocalDateTime.parse(text, DateTimeFormatter.ISO_LOCAL_DATE_TIME);
        } catch (DateTimeParseException e) {
            return null;
        }
    }

    /** Region ids only: "+01:00" or "GMT+1" carry no DST rules and would render wrongly. */
    private static boolean isZoneId(String tz) {
        try {
            return ZoneRulesProvider.getAvailableZoneIds().contains(tz) && ZoneId.of(tz) != null;
        } catch (DateTimeException e) {
            return false;
        }
    }

    private static Duration parseDuration(String text) {
        try {
            Duration duration = Duration.parse(text);
            return duration.isNegative() || duration.isZero() ? null : duration;
        } catch (DateTimeParseException e) {
            return null;
        }
    }
}
