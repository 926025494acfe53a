package dev.tickler.time;

import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.time.zone.ZoneRulesProvider;
import java.util.ArrayList;
import java.util.List;

import dev.tickler.problem.FieldError;

/**
 * The rules for when a reminder fires (docs/contract.md#time-rules): an instant with an offset, or a wall-clock time in
 * an IANA zone where a time in a DST gap moves forward by the gap and one in an overlap takes the earlier offset.
 */
public final class ReminderTiming {

    public static final ZoneId DEFAULT_ZONE = ZoneId.of("UTC");

    /**
     * The instants Tickler stores: every one of them is a Postgres timestamptz and a java.time instant, and renders
     * with a four-digit year in any zone (offsets reach ±18 h), so nothing accepted can fail later.
     */
    public static final Instant EARLIEST = Instant.parse("1970-01-01T00:00:00Z");
    public static final Instant LATEST = Instant.parse("9999-12-30T23:59:59.999999Z");
    public static final String RANGE = "between 1970-01-01T00:00:00Z and 9999-12-30T23:59:59Z";

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
        Instant instant = null;
        if (fireAt != null) {
            instant = parseInstant(fireAt);
            if (instant == null) {
                problems.add(new FieldError("fire_at", "must be an ISO-8601 instant with an offset, e.g. 2026-12-01T08:00:00Z"));
            } else if (!isSupported(instant)) {
                problems.add(new FieldError("fire_at", "must be " + RANGE));
                instant = null;
            }
        }
        boolean zoneValid = tz == null || isZoneId(tz);
        if (!zoneValid) {
            problems.add(new FieldError("tz", "must be an IANA time zone id, e.g. Europe/Berlin"));
        }
        if (localTime != null) {
            LocalDateTime local = parseLocal(localTime);
            if (local == null) {
                problems.add(new FieldError("local_time", "must be an ISO-8601 wall-clock time without offset, e.g. 2026-12-01T09:00"));
            } else if (zoneValid && (tz != null || whenRequired)) {
                // without tz a creation reads the local time in UTC; a PATCH in the stored zone, which the service checks
                instant = ZonedDateTime.of(local, tz == null ? DEFAULT_ZONE : ZoneId.of(tz)).toInstant();
                if (!isSupported(instant)) {
                    problems.add(new FieldError("local_time", "must fall " + RANGE + " in its zone"));
                    instant = null;
                }
            }
        }
        if (expiresAfter != null) {
            Duration window = parseDuration(expiresAfter);
            if (window == null) {
                problems.add(new FieldError("expires_after", "must be a positive ISO-8601 duration, e.g. PT6H or P1D"));
            } else if (instant != null && expiresAt(instant, window) == null) {
                problems.add(new FieldError("expires_after", expiryProblem()));
            }
        }
        return problems;
    }

    public static boolean isSupported(Instant instant) {
        return !instant.isBefore(EARLIEST) && !instant.isAfter(LATEST);
    }

    /** fireAt + window, or null when that falls past {@link #LATEST}. */
    public static Instant expiresAt(Instant fireAt, Duration window) {
        return window.compareTo(Duration.between(fireAt, LATEST)) > 0 ? null : fireAt.plus(window);
    }

    public static String expiryProblem() {
        return "fire_at plus expires_after must fall on or before 9999-12-30T23:59:59Z";
    }

    /** The instant a valid fire_at or local_time names; local times are read in {@code zone}. */
    public static Instant fireAt(String fireAt, String localTime, ZoneId zone) {
        Instant instant = fireAt != null ? parseInstant(fireAt) : ZonedDateTime.of(parseLocal(localTime), zone).toInstant();
        // Postgres keeps microseconds; truncating here keeps the idempotency lookup exact.
        return instant.truncatedTo(ChronoUnit.MICROS);
    }

    public static Duration expiresAfter(String expiresAfter) {
        return parseDuration(expiresAfter);
    }

    /** fire_at as the wall clock of the reminder's zone, e.g. 2026-12-01T09:00:00+01:00. */
    public static String renderLocal(Instant fireAt, String tz) {
        return fireAt.atZone(ZoneId.of(tz)).toOffsetDateTime().format(DateTimeFormatter.ISO_OFFSET_DATE_TIME);
    }

    /** The instant an ISO-8601 date-time with an offset names, e.g. 2026-12-01T08:00:00Z; null when it names none. */
    public static Instant parseInstant(String text) {
        try {
            return OffsetDateTime.parse(text, DateTimeFormatter.ISO_OFFSET_DATE_TIME).toInstant();
        } catch (DateTimeException e) {
            return null;
        }
    }

    private static LocalDateTime parseLocal(String text) {
        try {
            return LocalDateTime.parse(text, DateTimeFormatter.ISO_LOCAL_DATE_TIME);
        } catch (DateTimeException e) {
            return null;
        }
    }

    /** Region ids only: "+01:00" or "GMT+1" carry no DST rules and would render wrongly. */
    public static boolean isZoneId(String tz) {
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
        } catch (DateTimeException | ArithmeticException e) {
            return null;
        }
    }
}
