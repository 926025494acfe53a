package dev.tickler.quiethours;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.DayOfWeek;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;

/** The quiet-hours rule on fixed dates, in zones whose DST changes make wall-clock windows hard. */
class QuietHoursRuleTest {

    private static final ZoneId BERLIN = ZoneId.of("Europe/Berlin");
    private static final ZoneId NEW_YORK = ZoneId.of("America/New_York");
    private static final Set<String> ALL = Set.copyOf(QuietHours.CHANNELS);
    private static final Set<DayOfWeek> WEEKDAYS = EnumSet.range(DayOfWeek.MONDAY, DayOfWeek.FRIDAY);

    @Test
    void aWindowThatWrapsPastMidnightCoversTheNightAndEndsNextMorning() {
        QuietHours friday = defer(BERLIN, window(EnumSet.of(DayOfWeek.FRIDAY), "22:00", "07:30"));
        Instant saturdayMorning = Instant.parse("2026-12-05T06:30:00Z"); // 07:30 in Berlin

        assertThat(friday.nextAllowed(Instant.parse("2026-12-04T21:00:00Z"), "email")) // Friday 22:00
                .isEqualTo(new QuietDecision.Deferred(saturdayMorning));
        assertThat(friday.nextAllowed(Instant.parse("2026-12-05T02:00:00Z"), "email")) // Saturday 03:00
                .isEqualTo(new QuietDecision.Deferred(saturdayMorning));
        assertThat(friday.nextAllowed(Instant.parse("2026-12-04T20:59:59Z"), "email")).isEqualTo(QuietDecision.ALLOWED);
        assertThat(friday.nextAllowed(saturdayMorning, "email")).isEqualTo(QuietDecision.ALLOWED);
    }

    @Test
    void aWrappedWindowBelongsToTheDayItStartsOn() {
        QuietHours weeknights = defer(BERLIN, window(WEEKDAYS, "22:00", "07:30"));

        // Saturday 03:00 is inside Friday night's window
        assertThat(weeknights.nextAllowed(Instant.parse("2026-12-05T02:00:00Z"), "sms"))
                .isEqualTo(new QuietDecision.Deferred(Instant.parse("2026-12-05T06:30:00Z")));
        // Sunday 23:00 and Monday 03:00 are not: no window starts on Sunday
        assertThat(weeknights.nextAllowed(Instant.parse("2026-12-06T22:00:00Z"), "sms")).isEqualTo(QuietDecision.ALLOWED);
        assertThat(weeknights.nextAllowed(Instant.parse("2026-12-07T02:00:00Z"), "sms")).isEqualTo(QuietDecision.ALLOWED);
        // Monday 22:30 is, until Tuesday 07:30
        assertThat(weeknights.nextAllowed(Instant.parse("2026-12-07T21:30:00Z"), "sms"))
                .isEqualTo(new QuietDecision.Deferred(Instant.parse("2026-12-08T06:30:00Z")));
    }

    @Test
    void aWindowEndThatFallsInTheSpringGapMovesForwardByTheGap() {
        // Berlin, Sunday 29 March 2026: 02:00 CET becomes 03:00 CEST; 02:30 does not exist and becomes 03:30 CEST
        QuietHours saturday = defer(BERLIN, window(EnumSet.of(DayOfWeek.SATURDAY), "22:00", "02:30"));
        Instant end = Instant.parse("2026-03-29T01:30:00Z"); // 03:30 CEST

        assertThat(saturday.nextAllowed(Instant.parse("2026-03-28T23:30:00Z"), "push")) // 00:30 CET
                .isEqualTo(new QuietDecision.Deferred(end));
        assertThat(saturday.nextAllowed(Instant.parse("2026-03-29T01:10:00Z"), "push")) // 03:10 CEST, still inside
                .isEqualTo(new QuietDecision.Deferred(end));
        assertThat(saturday.nextAllowed(end, "push")).isEqualTo(QuietDecision.ALLOWED);
    }

    @Test
    void aWindowEndInTheAutumnOverlapTakesTheEarlierOffset() {
        // Berlin, Sunday 25 October 2026: 03:00 CEST becomes 02:00 CET; 02:30 happens twice, the first (CEST) counts
        QuietHours saturday = defer(BERLIN, window(EnumSet.of(DayOfWeek.SATURDAY), "22:00", "02:30"));

        assertThat(saturday.nextAllowed(Instant.parse("2026-10-24T23:00:00Z"), "email")) // 01:00 CEST
                .isEqualTo(new QuietDecision.Deferred(Instant.parse("2026-10-25T00:30:00Z")));
        // 02:15 CET, the second pass through the repeated hour, is after the window
        assertThat(saturday.nextAllowed(Instant.parse("2026-10-25T01:15:00Z"), "email")).isEqualTo(QuietDecision.ALLOWED);
    }

    @Test
    void newYorkSpringGapShiftsBothAStartAndAnEnd() {
        // Sunday 8 March 2026: 02:00 EST becomes 03:00 EDT
        QuietHours endInGap = defer(NEW_YORK, window(EnumSet.of(DayOfWeek.SATURDAY), "23:00", "02:15"));
        assertThat(endInGap.nextAllowed(Instant.parse("2026-03-08T06:50:00Z"), "sms")) // 01:50 EST
                .isEqualTo(new QuietDecision.Deferred(Instant.parse("2026-03-08T07:15:00Z"))); // 03:15 EDT

        QuietHours startInGap = defer(NEW_YORK, window(EnumSet.of(DayOfWeek.SUNDAY), "02:30", "04:00"));
        assertThat(startInGap.nextAllowed(Instant.parse("2026-03-08T07:10:00Z"), "sms")) // 03:10 EDT, before 03:30
                .isEqualTo(QuietDecision.ALLOWED);
        assertThat(startInGap.nextAllowed(Instant.parse("2026-03-08T07:40:00Z"), "sms"))
                .isEqualTo(new QuietDecision.Deferred(Instant.parse("2026-03-08T08:00:00Z"))); // 04:00 EDT
    }

    @Test
    void newYorkAutumnOverlapStartsAtTheEarlierOffsetAndRunsAnHourLonger() {
        // Sunday 1 November 2026: 02:00 EDT becomes 01:00 EST; 01:30 starts at 01:30 EDT (05:30Z)
        QuietHours sunday = defer(NEW_YORK, window(EnumSet.of(DayOfWeek.SUNDAY), "01:30", "05:00"));

        assertThat(sunday.nextAllowed(Instant.parse("2026-11-01T05:20:00Z"), "push")).isEqualTo(QuietDecision.ALLOWED);
        assertThat(sunday.nextAllowed(Instant.parse("2026-11-01T05:40:00Z"), "push"))
                .isEqualTo(new QuietDecision.Deferred(Instant.parse("2026-11-01T10:00:00Z"))); // 05:00 EST
    }

    @Test
    void adjacentAndOverlappingWindowsChainToTheEndOfTheLast() {
        Set<DayOfWeek> monday = EnumSet.of(DayOfWeek.MONDAY);
        Set<DayOfWeek> tuesday = EnumSet.of(DayOfWeek.TUESDAY);
        QuietHours chained = defer(BERLIN, window(monday, "20:00", "21:00"), window(monday, "21:00", "23:30"),
                window(monday, "23:00", "06:00"), window(tuesday, "06:00", "07:00"), window(tuesday, "07:01", "08:00"));

        // Monday 20:30 → 21:00 → 23:30 (overlapping 23:00–06:00) → Tuesday 06:00 → 07:00; 07:00–07:01 is free
        assertThat(chained.nextAllowed(Instant.parse("2026-12-07T19:30:00Z"), "email"))
                .isEqualTo(new QuietDecision.Deferred(Instant.parse("2026-12-08T06:00:00Z")));
        assertThat(chained.nextAllowed(Instant.parse("2026-12-08T06:00:00Z"), "email")).isEqualTo(QuietDecision.ALLOWED);
    }

    @Test
    void onlyTheWindowsOfTheReminderChannelCount() {
        QuietHours smsOnly = new QuietHours(BERLIN, List.of(new QuietWindow(WEEKDAYS, minutes("22:00"),
                minutes("07:30"), Set.of("sms", "push"))), QuietPolicy.DEFER);
        Instant mondayNight = Instant.parse("2026-12-07T22:00:00Z");

        assertThat(smsOnly.nextAllowed(mondayNight, "email")).isEqualTo(QuietDecision.ALLOWED);
        assertThat(smsOnly.nextAllowed(mondayNight, "sms")).isInstanceOf(QuietDecision.Deferred.class);
        assertThat(smsOnly.nextAllowed(mondayNight, "push")).isInstanceOf(QuietDecision.Deferred.class);
    }

    @Test
    void theSkipPolicySkipsInsideAWindowOnly() {
        QuietHours skip = new QuietHours(BERLIN, List.of(window(WEEKDAYS, "22:00", "07:30")), QuietPolicy.SKIP);

        assertThat(skip.nextAllowed(Instant.parse("2026-12-07T22:00:00Z"), "sms")).isEqualTo(QuietDecision.SKIPPED);
        assertThat(skip.nextAllowed(Instant.parse("2026-12-07T12:00:00Z"), "sms")).isEqualTo(QuietDecision.ALLOWED);
    }

    @Test
    void expiryWinsOverADeferralThatEndsAfterIt() {
        QuietHours nights = defer(BERLIN, window(WEEKDAYS, "22:00", "07:30"));
        Instant mondayNight = Instant.parse("2026-12-07T22:00:00Z");
        Instant end = Instant.parse("2026-12-08T06:30:00Z");

        assertThat(nights.check(mondayNight, "sms", end.minusSeconds(1))).isEqualTo(new QuietDecision.Expired(end));
        assertThat(nights.check(mondayNight, "sms", end)).isEqualTo(new QuietDecision.Deferred(end));
        assertThat(nights.check(mondayNight, "sms", null)).isEqualTo(new QuietDecision.Deferred(end));
        assertThat(QuietHours.check(null, mondayNight, "sms", null)).isEqualTo(QuietDecision.ALLOWED);
    }

    @Test
    void anEndOf2400IsMidnightAfterTheStartDay() {
        QuietHours saturdayEvening = defer(BERLIN, window(EnumSet.of(DayOfWeek.SATURDAY), "20:00", "24:00"));

        assertThat(saturdayEvening.nextAllowed(Instant.parse("2026-12-05T22:59:00Z"), "email"))
                .isEqualTo(new QuietDecision.Deferred(Instant.parse("2026-12-05T23:00:00Z")));
    }

    @Test
    void aDeferralBeyondTheQueueCeilingComesBackAtTheCeiling() {
        Instant now = Instant.parse("2026-12-01T00:00:00Z");

        assertThat(new QuietDecision.Deferred(now.plus(Duration.ofDays(8))).dueAt(now))
                .isEqualTo(now.plus(Duration.ofDays(7)));
        assertThat(new QuietDecision.Deferred(now.plus(Duration.ofHours(9))).dueAt(now))
                .isEqualTo(now.plus(Duration.ofHours(9)));
    }

    @Test
    void windowsThatLeaveNoFreeMinuteInTheWeekAreFound() {
        QuietHours allDay = new QuietHours(BERLIN, List.of(new QuietWindow(EnumSet.allOf(DayOfWeek.class), 0,
                QuietWindow.MINUTES_A_DAY, Set.of("sms"))), QuietPolicy.DEFER);
        QuietHours wrappedAllWeek = defer(BERLIN, window(EnumSet.allOf(DayOfWeek.class), "07:00", "07:01"),
                window(EnumSet.allOf(DayOfWeek.class), "07:01", "07:00"));
        QuietHours oneMinuteFree = defer(BERLIN, window(EnumSet.allOf(DayOfWeek.class), "07:01", "07:00"));

        assertThat(allDay.channelsQuietAllWeek()).containsExactly("sms");
        assertThat(wrappedAllWeek.channelsQuietAllWeek()).containsExactly("email", "sms", "push");
        assertThat(oneMinuteFree.channelsQuietAllWeek()).isEmpty();
        assertThat(oneMinuteFree.nextAllowed(Instant.parse("2026-12-07T11:00:00Z"), "email"))
                .isEqualTo(new QuietDecision.Deferred(Instant.parse("2026-12-08T06:00:00Z")));
    }

    @Test
    void storedFormReadsBackTheSame() {
        QuietHours quietHours = new QuietHours(NEW_YORK, List.of(new QuietWindow(WEEKDAYS, minutes("22:00"),
                minutes("07:30"), Set.of("push", "sms")), window(EnumSet.of(DayOfWeek.SUNDAY), "00:00", "24:00")),
                QuietPolicy.SKIP);

        assertThat(QuietHours.fromJson(quietHours.toJson())).isEqualTo(quietHours);
        assertThat(quietHours.windowsAsJson().get(0)).containsEntry("days", List.of("mon", "tue", "wed", "thu", "fri"))
                .containsEntry("channels", List.of("sms", "push")).containsEntry("end", "07:30");
    }

    private static QuietHours defer(ZoneId zone, QuietWindow... windows) {
        return new QuietHours(zone, List.of(windows), QuietPolicy.DEFER);
    }

    private static QuietWindow window(Set<DayOfWeek> days, String start, String end) {
        return new QuietWindow(days, minutes(start), minutes(end), ALL);
    }

    private static int minutes(String clock) {
        return QuietHours.minuteOf(clock);
    }
}
