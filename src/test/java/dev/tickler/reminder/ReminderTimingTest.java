package dev.tickler.reminder;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.util.List;

import org.junit.jupiter.api.Test;

import dev.tickler.problem.FieldError;
import dev.tickler.time.ReminderTiming;

/**
 * The timing rules (docs/contract.md#time-rules) without the HTTP layer: DST, the supported instant range, zone ids,
 * durations, parsing.
 */
class ReminderTimingTest {

    private static final ZoneId BERLIN = ZoneId.of("Europe/Berlin");
    private static final ZoneId UTC = ZoneId.of("UTC");

    private static final String RANGE = "between 1970-01-01T00:00:00Z and 9999-12-30T23:59:59Z";
    private static final FieldError FIRE_AT_OUT_OF_RANGE = new FieldError("fire_at", "must be " + RANGE);
    private static final FieldError LOCAL_TIME_OUT_OF_RANGE = new FieldError("local_time", "must fall " + RANGE + " in its zone");
    private static final FieldError FIRE_AT_UNREADABLE = new FieldError("fire_at",
            "must be an ISO-8601 instant with an offset, e.g. 2026-12-01T08:00:00Z");
    private static final FieldError LOCAL_TIME_UNREADABLE = new FieldError("local_time",
            "must be an ISO-8601 wall-clock time without offset, e.g. 2026-12-01T09:00");
    private static final FieldError TZ_NOT_A_REGION = new FieldError("tz", "must be an IANA time zone id, e.g. Europe/Berlin");
    private static final FieldError EXPIRY_UNREADABLE = new FieldError("expires_after",
            "must be a positive ISO-8601 duration, e.g. PT6H or P1D");
    private static final FieldError EXPIRY_PAST_THE_RANGE = new FieldError("expires_after",
            "fire_at plus expires_after must fall on or before 9999-12-30T23:59:59Z");

    @Test
    void aWallTimeInTheSpringGapMovesForwardByTheGap() {
        Instant fireAt = ReminderTiming.fireAt(null, "2026-03-29T02:30", BERLIN);

        assertThat(fireAt).isEqualTo(OffsetDateTime.parse("2026-03-29T03:30+02:00").toInstant());
        assertThat(ReminderTiming.renderLocal(fireAt, "Europe/Berlin")).isEqualTo("2026-03-29T03:30:00+02:00");
    }

    @Test
    void aWallTimeInTheAutumnOverlapTakesTheEarlierOffset() {
        Instant fireAt = ReminderTiming.fireAt(null, "2026-10-25T02:30", BERLIN);

        assertThat(fireAt).isEqualTo(OffsetDateTime.parse("2026-10-25T02:30+02:00").toInstant())
                .isEqualTo(Instant.parse("2026-10-25T00:30:00Z"));
        assertThat(ReminderTiming.renderLocal(fireAt, "Europe/Berlin")).isEqualTo("2026-10-25T02:30:00+02:00");
    }

    @Test
    void anInstantWithAnOffsetIsTakenAsGivenWhateverTheZone() {
        assertThat(ReminderTiming.fireAt("2026-03-29T02:30:00+01:00", null, BERLIN))
                .isEqualTo(Instant.parse("2026-03-29T01:30:00Z"));
    }

    @Test
    void fireAtIsTruncatedToMicroseconds() {
        assertThat(ReminderTiming.fireAt("2026-12-01T08:00:00.123456789Z", null, UTC))
                .isEqualTo(Instant.parse("2026-12-01T08:00:00.123456Z"));
        assertThat(ReminderTiming.fireAt(null, "2026-12-01T09:00:00.999999999", BERLIN))
                .isEqualTo(Instant.parse("2026-12-01T08:00:00.999999Z"));
        assertThat(ReminderTiming.fireAt("2026-12-01T08:00:00.123456Z", null, UTC))
                .isEqualTo(Instant.parse("2026-12-01T08:00:00.123456Z"));
    }

    @Test
    void instantsAtTheEdgesOfTheSupportedRangeAreAccepted() {
        assertThat(problems("1970-01-01T00:00:00Z", null, null, null)).isEmpty();
        assertThat(problems("1970-01-01T01:00:00+01:00", null, null, null)).isEmpty();
        assertThat(problems("9999-12-30T23:59:59Z", null, null, null)).isEmpty();
        assertThat(problems("9999-12-30T23:59:59.999999Z", null, null, null)).isEmpty();
        assertThat(ReminderTiming.isSupported(ReminderTiming.EARLIEST)).isTrue();
        assertThat(ReminderTiming.isSupported(ReminderTiming.LATEST)).isTrue();
    }

    @Test
    void instantsOutsideTheSupportedRangeAreRefusedOnFireAt() {
        assertThat(problems("1969-12-31T23:59:59.999999Z", null, null, null)).containsExactly(FIRE_AT_OUT_OF_RANGE);
        assertThat(problems("1970-01-01T00:30:00+01:00", null, null, null)).containsExactly(FIRE_AT_OUT_OF_RANGE);
        assertThat(problems("9999-12-30T23:59:59.9999991Z", null, null, null)).containsExactly(FIRE_AT_OUT_OF_RANGE);
        assertThat(problems("9999-12-31T00:00:00Z", null, null, null)).containsExactly(FIRE_AT_OUT_OF_RANGE);
        assertThat(problems("9999-12-30T23:59:59-01:00", null, null, null)).containsExactly(FIRE_AT_OUT_OF_RANGE);
        assertThat(problems("+10000-01-01T00:00:00Z", null, null, null)).containsExactly(FIRE_AT_OUT_OF_RANGE);
        assertThat(problems("-0001-01-01T00:00:00Z", null, null, null)).containsExactly(FIRE_AT_OUT_OF_RANGE);
    }

    @Test
    void localTimeIsRangeCheckedInItsOwnZone() {
        // the same wall time is inside the range east of Greenwich and outside it west of it
        assertThat(problems(null, "9999-12-31T09:00", "Pacific/Kiritimati", null)).isEmpty();
        assertThat(problems(null, "9999-12-31T09:00", "UTC", null)).containsExactly(LOCAL_TIME_OUT_OF_RANGE);
        assertThat(problems(null, "9999-12-30T20:00", "America/Los_Angeles", null)).containsExactly(LOCAL_TIME_OUT_OF_RANGE);

        assertThat(problems(null, "1970-01-01T00:30", "America/New_York", null)).isEmpty();
        assertThat(problems(null, "1970-01-01T00:30", "Europe/Berlin", null)).containsExactly(LOCAL_TIME_OUT_OF_RANGE);
    }

    @Test
    void aNewReminderWithoutZoneReadsItsLocalTimeInUtc() {
        assertThat(problems(null, "1970-01-01T00:00", null, null)).isEmpty();
        assertThat(problems(null, "1969-12-31T23:59:59", null, null)).containsExactly(LOCAL_TIME_OUT_OF_RANGE);
        assertThat(ReminderTiming.fireAt(null, "2026-12-01T09:00", ReminderTiming.DEFAULT_ZONE))
                .isEqualTo(Instant.parse("2026-12-01T09:00:00Z"));
    }

    @Test
    void anUpdateWithoutZoneLeavesTheRangeOfItsLocalTimeToTheStoredZone() {
        // a PATCH reads the wall time in the reminder's stored zone, which only the service knows
        assertThat(ReminderTiming.problems(null, "1969-12-31T23:59", null, null, false)).isEmpty();
        assertThat(ReminderTiming.problems(null, "1969-12-31T23:59", "Europe/Berlin", null, false))
                .containsExactly(LOCAL_TIME_OUT_OF_RANGE);
    }

    @Test
    void anExpiryPastTheEndOfTheRangeIsRefused() {
        assertThat(problems("9999-12-30T00:00:00Z", null, null, "P1D")).containsExactly(EXPIRY_PAST_THE_RANGE);
        assertThat(problems(null, "9999-12-30T00:00", "UTC", "PT24H")).containsExactly(EXPIRY_PAST_THE_RANGE);
        assertThat(problems("2026-12-01T08:00:00Z", null, null, "PT9223372036854775807S"))
                .containsExactly(EXPIRY_PAST_THE_RANGE);
        assertThat(ReminderTiming.expiresAt(Instant.parse("9999-12-30T00:00:00Z"), Duration.ofDays(1))).isNull();
    }

    @Test
    void anExpiryEndingExactlyAtTheEndOfTheRangeIsAccepted() {
        Instant fireAt = Instant.parse("9999-12-30T00:00:00Z");
        Duration window = Duration.between(fireAt, ReminderTiming.LATEST);

        assertThat(problems("9999-12-30T00:00:00Z", null, null, window.toString())).isEmpty();
        assertThat(ReminderTiming.expiresAt(fireAt, window)).isEqualTo(ReminderTiming.LATEST);
        assertThat(ReminderTiming.expiresAt(fireAt, window.plusNanos(1))).isNull();
    }

    @Test
    void anExpiryIsNotRangeCheckedAgainstAFireTimeThatIsItselfRefused() {
        assertThat(problems("9999-12-31T00:00:00Z", null, null, "P1D")).containsExactly(FIRE_AT_OUT_OF_RANGE);
    }

    @Test
    void zonesMustBeIanaRegionIds() {
        assertThat(problems("2026-12-01T08:00:00Z", null, "Europe/Berlin", null)).isEmpty();
        assertThat(problems("2026-12-01T08:00:00Z", null, "UTC", null)).isEmpty();
        for (String notARegion : List.of("+01:00", "Z", "GMT+1", "UTC+01:00", "europe/berlin", "Europe/Atlantis", "",
                "Europe/Berlin ")) {
            assertThat(problems("2026-12-01T08:00:00Z", null, notARegion, null)).as("tz %s", notARegion)
                    .containsExactly(TZ_NOT_A_REGION);
        }
    }

    @Test
    void aLocalTimeInAnUnknownZoneIsReportedOnTheZoneOnly() {
        assertThat(problems(null, "9999-12-31T09:00", "+14:00", null)).containsExactly(TZ_NOT_A_REGION);
    }

    @Test
    void durationsMustBePositive() {
        assertThat(problems("2026-12-01T08:00:00Z", null, null, "PT0.000001S")).isEmpty();
        assertThat(ReminderTiming.expiresAfter("P1D")).isEqualTo(Duration.ofDays(1));
        for (String notPositive : List.of("PT0S", "P0D", "-PT1H", "PT-1H", "-P1D")) {
            assertThat(problems("2026-12-01T08:00:00Z", null, null, notPositive)).as("expires_after %s", notPositive)
                    .containsExactly(EXPIRY_UNREADABLE);
            assertThat(ReminderTiming.expiresAfter(notPositive)).isNull();
        }
    }

    @Test
    void unreadableFireAtIsReportedOnFireAt() {
        for (String unreadable : List.of("2026-12-01T08:00:00", "2026-12-01", "tomorrow", "2026-02-30T08:00:00Z",
                "2026-12-01T08:00:00+19:00", "2026-12-01T08:00:00Z[Europe/Berlin]x", "1764576000", "")) {
            assertThat(problems(unreadable, null, null, null)).as("fire_at %s", unreadable)
                    .containsExactly(FIRE_AT_UNREADABLE);
        }
    }

    @Test
    void unreadableLocalTimeIsReportedOnLocalTime() {
        for (String unreadable : List.of("2026-12-01T09:00Z", "2026-12-01T09:00+01:00", "2026-12-01", "09:00",
                "2026-12-01T24:00", "2026-02-29T09:00", "")) {
            assertThat(problems(null, unreadable, "Europe/Berlin", null)).as("local_time %s", unreadable)
                    .containsExactly(LOCAL_TIME_UNREADABLE);
        }
    }

    @Test
    void unreadableDurationsAreReportedOnExpiresAfter() {
        for (String unreadable : List.of("6h", "P1Y", "P1M", "PT", "P99999999999999999D", "1 day", "")) {
            assertThat(problems("2026-12-01T08:00:00Z", null, null, unreadable)).as("expires_after %s", unreadable)
                    .containsExactly(EXPIRY_UNREADABLE);
        }
    }

    @Test
    void everyUnreadableFieldIsReportedInOneAnswer() {
        assertThat(problems("soon", null, "+01:00", "a while"))
                .containsExactly(FIRE_AT_UNREADABLE, TZ_NOT_A_REGION, EXPIRY_UNREADABLE);
        assertThat(problems(null, "later", "Mars/Olympus", "PT0S"))
                .containsExactly(TZ_NOT_A_REGION, LOCAL_TIME_UNREADABLE, EXPIRY_UNREADABLE);
    }

    @Test
    void fireAtAndLocalTimeTogetherAreRefused() {
        assertThat(problems("2026-12-01T08:00:00Z", "2026-12-01T09:00", "Europe/Berlin", null))
                .containsExactly(new FieldError("fire_at", "give either fire_at or local_time with tz, not both"));
    }

    @Test
    void aNewReminderNeedsAFireTimeAndAnUpdateDoesNot() {
        assertThat(problems(null, null, null, null))
                .containsExactly(new FieldError("fire_at", "one of fire_at or local_time with tz is required"));
        assertThat(ReminderTiming.problems(null, null, null, null, false)).isEmpty();
        assertThat(ReminderTiming.problems(null, null, "Europe/Berlin", "PT1H", false)).isEmpty();
    }

    @Test
    void theLastSupportedInstantRendersWithAFourDigitYearInTheEasternmostZone() {
        assertThat(ReminderTiming.renderLocal(ReminderTiming.LATEST, "Pacific/Kiritimati"))
                .isEqualTo("9999-12-31T13:59:59.999999+14:00");
    }

    @Test
    void theFirstSupportedInstantRendersWithAFourDigitYearInTheWesternmostZone() {
        assertThat(ReminderTiming.renderLocal(ReminderTiming.EARLIEST, "Etc/GMT+12"))
                .isEqualTo("1969-12-31T12:00:00-12:00");
    }

    /** As a creation checks them: one of fire_at or local_time is required. */
    private static List<FieldError> problems(String fireAt, String localTime, String tz, String expiresAfter) {
        return ReminderTiming.problems(fireAt, localTime, tz, expiresAfter, true);
    }
}
