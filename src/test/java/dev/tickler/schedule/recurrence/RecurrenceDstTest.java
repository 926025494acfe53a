package dev.tickler.schedule.recurrence;

import static dev.tickler.schedule.recurrence.Occurrences.lines;
import static dev.tickler.schedule.recurrence.Occurrences.recurrence;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.zone.ZoneOffsetTransition;
import java.time.zone.ZoneRules;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import dev.tickler.schedule.recurrence.DstPolicy.Gap;
import dev.tickler.schedule.recurrence.DstPolicy.Overlap;

/**
 * Occurrences around DST transitions in zones with hard rules, under every policy. Each test first checks against
 * the JDK's time-zone data that the transition is where the expectations assume.
 */
class RecurrenceDstTest {

    static Stream<DstPolicy> policies() {
        return Occurrences.ALL_POLICIES.stream();
    }

    private static List<String> expand(String rrule, String start, String zone, DstPolicy policy, int limit) {
        return lines(recurrence(rrule, start, zone, policy), limit);
    }

    private static ZoneOffsetTransition transitionAt(String zone, String wallTime) {
        ZoneOffsetTransition transition = ZoneId.of(zone).getRules().getTransition(LocalDateTime.parse(wallTime));
        assertThat(transition).as("a transition at %s in %s", wallTime, zone).isNotNull();
        return transition;
    }

    private static void assertGap(String zone, String from, String to) {
        ZoneOffsetTransition transition = transitionAt(zone, from);
        assertThat(transition.isGap()).isTrue();
        assertThat(transition.getDateTimeBefore()).isEqualTo(LocalDateTime.parse(from));
        assertThat(transition.getDateTimeAfter()).isEqualTo(LocalDateTime.parse(to));
    }

    private static void assertOverlap(String zone, String from, String backTo) {
        ZoneOffsetTransition transition = transitionAt(zone, backTo);
        assertThat(transition.isOverlap()).isTrue();
        assertThat(transition.getDateTimeBefore()).isEqualTo(LocalDateTime.parse(from));
        assertThat(transition.getDateTimeAfter()).isEqualTo(LocalDateTime.parse(backTo));
    }

    // America/New_York: 2026-03-08 02:00 EST -> 03:00 EDT, 2026-11-01 02:00 EDT -> 01:00 EST

    @ParameterizedTest
    @MethodSource("policies")
    void newYorkSpringForwardAt0230(DstPolicy policy) {
        assertGap("America/New_York", "2026-03-08T02:00", "2026-03-08T03:00");

        assertThat(expand("FREQ=DAILY", "2026-03-07T02:30", "America/New_York", policy, 3)).isEqualTo(
                policy.gap() == Gap.SHIFT ? List.of(
                        "1 2026-03-07T02:30 2026-03-07T07:30:00Z 2026-03-07T02:30-05:00 -",
                        "2 2026-03-08T02:30 2026-03-08T07:30:00Z 2026-03-08T03:30-04:00 gap_shifted",
                        "3 2026-03-09T02:30 2026-03-09T06:30:00Z 2026-03-09T02:30-04:00 -")
                : List.of(
                        "1 2026-03-07T02:30 2026-03-07T07:30:00Z 2026-03-07T02:30-05:00 -",
                        "2 2026-03-09T02:30 2026-03-09T06:30:00Z 2026-03-09T02:30-04:00 -",
                        "3 2026-03-10T02:30 2026-03-10T06:30:00Z 2026-03-10T02:30-04:00 -"));
    }

    @ParameterizedTest
    @MethodSource("policies")
    void newYorkFallBackAt0230And0200IsUnambiguous(DstPolicy policy) {
        assertOverlap("America/New_York", "2026-11-01T02:00", "2026-11-01T01:00");

        assertThat(expand("FREQ=DAILY", "2026-10-31T02:30", "America/New_York", policy, 3)).containsExactly(
                "1 2026-10-31T02:30 2026-10-31T06:30:00Z 2026-10-31T02:30-04:00 -",
                "2 2026-11-01T02:30 2026-11-01T07:30:00Z 2026-11-01T02:30-05:00 -",
                "3 2026-11-02T02:30 2026-11-02T07:30:00Z 2026-11-02T02:30-05:00 -");
        // the overlap is 01:00 to 01:59:59; 02:00 is the first wall time after it
        assertThat(expand("FREQ=DAILY", "2026-10-31T02:00", "America/New_York", policy, 3)).containsExactly(
                "1 2026-10-31T02:00 2026-10-31T06:00:00Z 2026-10-31T02:00-04:00 -",
                "2 2026-11-01T02:00 2026-11-01T07:00:00Z 2026-11-01T02:00-05:00 -",
                "3 2026-11-02T02:00 2026-11-02T07:00:00Z 2026-11-02T02:00-05:00 -");
    }

    @ParameterizedTest
    @MethodSource("policies")
    void newYorkFallBackAt0130(DstPolicy policy) {
        assertThat(expand("FREQ=DAILY", "2026-10-31T01:30", "America/New_York", policy, 3)).isEqualTo(
                policy.overlap() == Overlap.FIRST ? List.of(
                        "1 2026-10-31T01:30 2026-10-31T05:30:00Z 2026-10-31T01:30-04:00 -",
                        "2 2026-11-01T01:30 2026-11-01T05:30:00Z 2026-11-01T01:30-04:00 overlap_earlier",
                        "3 2026-11-02T01:30 2026-11-02T06:30:00Z 2026-11-02T01:30-05:00 -")
                : List.of(
                        "1 2026-10-31T01:30 2026-10-31T05:30:00Z 2026-10-31T01:30-04:00 -",
                        "2 2026-11-01T01:30 2026-11-01T06:30:00Z 2026-11-01T01:30-05:00 overlap_later",
                        "3 2026-11-02T01:30 2026-11-02T06:30:00Z 2026-11-02T01:30-05:00 -"));
    }

    @ParameterizedTest
    @MethodSource("policies")
    void newYorkSpringForwardAt0200(DstPolicy policy) {
        assertThat(expand("FREQ=DAILY", "2026-03-07T02:00", "America/New_York", policy, 3)).isEqualTo(
                policy.gap() == Gap.SHIFT ? List.of(
                        "1 2026-03-07T02:00 2026-03-07T07:00:00Z 2026-03-07T02:00-05:00 -",
                        "2 2026-03-08T02:00 2026-03-08T07:00:00Z 2026-03-08T03:00-04:00 gap_shifted",
                        "3 2026-03-09T02:00 2026-03-09T06:00:00Z 2026-03-09T02:00-04:00 -")
                : List.of(
                        "1 2026-03-07T02:00 2026-03-07T07:00:00Z 2026-03-07T02:00-05:00 -",
                        "2 2026-03-09T02:00 2026-03-09T06:00:00Z 2026-03-09T02:00-04:00 -",
                        "3 2026-03-10T02:00 2026-03-10T06:00:00Z 2026-03-10T02:00-04:00 -"));
    }

    // Europe/Berlin: 2026-03-29 02:00 CET -> 03:00 CEST, 2026-10-25 03:00 CEST -> 02:00 CET

    @ParameterizedTest
    @MethodSource("policies")
    void berlinSpringForwardAt0230(DstPolicy policy) {
        assertGap("Europe/Berlin", "2026-03-29T02:00", "2026-03-29T03:00");

        assertThat(expand("FREQ=DAILY", "2026-03-28T02:30", "Europe/Berlin", policy, 3)).isEqualTo(
                policy.gap() == Gap.SHIFT ? List.of(
                        "1 2026-03-28T02:30 2026-03-28T01:30:00Z 2026-03-28T02:30+01:00 -",
                        "2 2026-03-29T02:30 2026-03-29T01:30:00Z 2026-03-29T03:30+02:00 gap_shifted",
                        "3 2026-03-30T02:30 2026-03-30T00:30:00Z 2026-03-30T02:30+02:00 -")
                : List.of(
                        "1 2026-03-28T02:30 2026-03-28T01:30:00Z 2026-03-28T02:30+01:00 -",
                        "2 2026-03-30T02:30 2026-03-30T00:30:00Z 2026-03-30T02:30+02:00 -",
                        "3 2026-03-31T02:30 2026-03-31T00:30:00Z 2026-03-31T02:30+02:00 -"));
    }

    @ParameterizedTest
    @MethodSource("policies")
    void berlinFallBackAt0230And0200(DstPolicy policy) {
        assertOverlap("Europe/Berlin", "2026-10-25T03:00", "2026-10-25T02:00");

        assertThat(expand("FREQ=DAILY", "2026-10-24T02:30", "Europe/Berlin", policy, 3)).isEqualTo(
                policy.overlap() == Overlap.FIRST ? List.of(
                        "1 2026-10-24T02:30 2026-10-24T00:30:00Z 2026-10-24T02:30+02:00 -",
                        "2 2026-10-25T02:30 2026-10-25T00:30:00Z 2026-10-25T02:30+02:00 overlap_earlier",
                        "3 2026-10-26T02:30 2026-10-26T01:30:00Z 2026-10-26T02:30+01:00 -")
                : List.of(
                        "1 2026-10-24T02:30 2026-10-24T00:30:00Z 2026-10-24T02:30+02:00 -",
                        "2 2026-10-25T02:30 2026-10-25T01:30:00Z 2026-10-25T02:30+01:00 overlap_later",
                        "3 2026-10-26T02:30 2026-10-26T01:30:00Z 2026-10-26T02:30+01:00 -"));
        // 02:00 opens the overlap, so it is ambiguous too
        assertThat(expand("FREQ=DAILY", "2026-10-24T02:00", "Europe/Berlin", policy, 3).get(1)).isEqualTo(
                policy.overlap() == Overlap.FIRST
                        ? "2 2026-10-25T02:00 2026-10-25T00:00:00Z 2026-10-25T02:00+02:00 overlap_earlier"
                        : "2 2026-10-25T02:00 2026-10-25T01:00:00Z 2026-10-25T02:00+01:00 overlap_later");
    }

    @ParameterizedTest
    @MethodSource("policies")
    void berlinAllYearAt0230(DstPolicy policy) {
        List<Occurrence> year = recurrence("FREQ=DAILY", "2026-01-01T02:30", "Europe/Berlin", policy)
                .stream().takeWhile(occurrence -> occurrence.wallTime().getYear() == 2026).toList();

        assertThat(year).hasSize(policy.gap() == Gap.SHIFT ? 365 : 364);
        assertThat(year).filteredOn(occurrence -> occurrence.note() != null)
                .extracting(Occurrences::line)
                .containsExactlyElementsOf(Stream.of(
                        policy.gap() == Gap.SHIFT
                                ? "88 2026-03-29T02:30 2026-03-29T01:30:00Z 2026-03-29T03:30+02:00 gap_shifted" : null,
                        policy.overlap() == Overlap.FIRST
                                ? (policy.gap() == Gap.SHIFT ? "298" : "297")
                                        + " 2026-10-25T02:30 2026-10-25T00:30:00Z 2026-10-25T02:30+02:00 overlap_earlier"
                                : (policy.gap() == Gap.SHIFT ? "298" : "297")
                                        + " 2026-10-25T02:30 2026-10-25T01:30:00Z 2026-10-25T02:30+01:00 overlap_later")
                        .filter(line -> line != null).toList());
    }

    // Australia/Lord_Howe: half-hour DST, 2026-04-05 02:00 (+11) -> 01:30 (+10:30), 2026-10-04 02:00 -> 02:30

    @ParameterizedTest
    @MethodSource("policies")
    void lordHoweHalfHourGap(DstPolicy policy) {
        assertGap("Australia/Lord_Howe", "2026-10-04T02:00", "2026-10-04T02:30");

        assertThat(expand("FREQ=DAILY", "2026-10-03T02:15", "Australia/Lord_Howe", policy, 3)).isEqualTo(
                policy.gap() == Gap.SHIFT ? List.of(
                        "1 2026-10-03T02:15 2026-10-02T15:45:00Z 2026-10-03T02:15+10:30 -",
                        "2 2026-10-04T02:15 2026-10-03T15:45:00Z 2026-10-04T02:45+11:00 gap_shifted",
                        "3 2026-10-05T02:15 2026-10-04T15:15:00Z 2026-10-05T02:15+11:00 -")
                : List.of(
                        "1 2026-10-03T02:15 2026-10-02T15:45:00Z 2026-10-03T02:15+10:30 -",
                        "2 2026-10-05T02:15 2026-10-04T15:15:00Z 2026-10-05T02:15+11:00 -",
                        "3 2026-10-06T02:15 2026-10-05T15:15:00Z 2026-10-06T02:15+11:00 -"));
        // 02:30 is just past the gap
        assertThat(expand("FREQ=DAILY", "2026-10-03T02:30", "Australia/Lord_Howe", policy, 2).get(1))
                .isEqualTo("2 2026-10-04T02:30 2026-10-03T15:30:00Z 2026-10-04T02:30+11:00 -");
    }

    @ParameterizedTest
    @MethodSource("policies")
    void lordHoweHalfHourOverlap(DstPolicy policy) {
        assertOverlap("Australia/Lord_Howe", "2026-04-05T02:00", "2026-04-05T01:30");

        assertThat(expand("FREQ=DAILY", "2026-04-04T01:45", "Australia/Lord_Howe", policy, 3)).isEqualTo(
                policy.overlap() == Overlap.FIRST ? List.of(
                        "1 2026-04-04T01:45 2026-04-03T14:45:00Z 2026-04-04T01:45+11:00 -",
                        "2 2026-04-05T01:45 2026-04-04T14:45:00Z 2026-04-05T01:45+11:00 overlap_earlier",
                        "3 2026-04-06T01:45 2026-04-05T15:15:00Z 2026-04-06T01:45+10:30 -")
                : List.of(
                        "1 2026-04-04T01:45 2026-04-03T14:45:00Z 2026-04-04T01:45+11:00 -",
                        "2 2026-04-05T01:45 2026-04-04T15:15:00Z 2026-04-05T01:45+10:30 overlap_later",
                        "3 2026-04-06T01:45 2026-04-05T15:15:00Z 2026-04-06T01:45+10:30 -"));
    }

    // Pacific/Apia: 2011-12-30 does not exist (29 Dec 24:00 -10:00 -> 31 Dec 00:00 +14:00)

    @ParameterizedTest
    @MethodSource("policies")
    void apiaSkipsAWholeDay(DstPolicy policy) {
        assertGap("Pacific/Apia", "2011-12-30T00:00", "2011-12-31T00:00");

        assertThat(expand("FREQ=DAILY", "2011-12-28T09:00", "Pacific/Apia", policy, 4)).isEqualTo(
                policy.gap() == Gap.SHIFT ? List.of(
                        "1 2011-12-28T09:00 2011-12-28T19:00:00Z 2011-12-28T09:00-10:00 -",
                        "2 2011-12-29T09:00 2011-12-29T19:00:00Z 2011-12-29T09:00-10:00 -",
                        // 30 Dec 09:00 shifted a day lands on 31 Dec 09:00, whose own occurrence is then dropped
                        "3 2011-12-30T09:00 2011-12-30T19:00:00Z 2011-12-31T09:00+14:00 gap_shifted",
                        "4 2012-01-01T09:00 2011-12-31T19:00:00Z 2012-01-01T09:00+14:00 -")
                : List.of(
                        "1 2011-12-28T09:00 2011-12-28T19:00:00Z 2011-12-28T09:00-10:00 -",
                        "2 2011-12-29T09:00 2011-12-29T19:00:00Z 2011-12-29T09:00-10:00 -",
                        "3 2011-12-31T09:00 2011-12-30T19:00:00Z 2011-12-31T09:00+14:00 -",
                        "4 2012-01-01T09:00 2011-12-31T19:00:00Z 2012-01-01T09:00+14:00 -"));
    }

    @Test
    void apiaShiftedDuplicatesAreNotCounted() {
        Recurrence recurrence = recurrence("FREQ=DAILY;BYHOUR=8,9;COUNT=6", "2011-12-29T08:00", "Pacific/Apia",
                DstPolicy.DEFAULT);

        assertThat(lines(recurrence, 10)).containsExactly(
                "1 2011-12-29T08:00 2011-12-29T18:00:00Z 2011-12-29T08:00-10:00 -",
                "2 2011-12-29T09:00 2011-12-29T19:00:00Z 2011-12-29T09:00-10:00 -",
                "3 2011-12-30T08:00 2011-12-30T18:00:00Z 2011-12-31T08:00+14:00 gap_shifted",
                "4 2011-12-30T09:00 2011-12-30T19:00:00Z 2011-12-31T09:00+14:00 gap_shifted",
                "5 2012-01-01T08:00 2011-12-31T18:00:00Z 2012-01-01T08:00+14:00 -",
                "6 2012-01-01T09:00 2011-12-31T19:00:00Z 2012-01-01T09:00+14:00 -");
    }

    @ParameterizedTest
    @MethodSource("policies")
    void hoursTwoAndThreeOnASpringForwardDayNeverGiveOneInstantTwice(DstPolicy policy) {
        assertThat(expand("FREQ=DAILY;BYHOUR=2,3;BYMINUTE=0,30", "2026-03-07T02:00", "America/New_York", policy,
                12)).isEqualTo(policy.gap() == Gap.SHIFT ? List.of(
                        "1 2026-03-07T02:00 2026-03-07T07:00:00Z 2026-03-07T02:00-05:00 -",
                        "2 2026-03-07T02:30 2026-03-07T07:30:00Z 2026-03-07T02:30-05:00 -",
                        "3 2026-03-07T03:00 2026-03-07T08:00:00Z 2026-03-07T03:00-05:00 -",
                        "4 2026-03-07T03:30 2026-03-07T08:30:00Z 2026-03-07T03:30-05:00 -",
                        // 02:00 and 02:30 shift onto 03:00 and 03:30, which are then dropped
                        "5 2026-03-08T02:00 2026-03-08T07:00:00Z 2026-03-08T03:00-04:00 gap_shifted",
                        "6 2026-03-08T02:30 2026-03-08T07:30:00Z 2026-03-08T03:30-04:00 gap_shifted",
                        "7 2026-03-09T02:00 2026-03-09T06:00:00Z 2026-03-09T02:00-04:00 -",
                        "8 2026-03-09T02:30 2026-03-09T06:30:00Z 2026-03-09T02:30-04:00 -",
                        "9 2026-03-09T03:00 2026-03-09T07:00:00Z 2026-03-09T03:00-04:00 -",
                        "10 2026-03-09T03:30 2026-03-09T07:30:00Z 2026-03-09T03:30-04:00 -",
                        "11 2026-03-10T02:00 2026-03-10T06:00:00Z 2026-03-10T02:00-04:00 -",
                        "12 2026-03-10T02:30 2026-03-10T06:30:00Z 2026-03-10T02:30-04:00 -")
                : List.of(
                        "1 2026-03-07T02:00 2026-03-07T07:00:00Z 2026-03-07T02:00-05:00 -",
                        "2 2026-03-07T02:30 2026-03-07T07:30:00Z 2026-03-07T02:30-05:00 -",
                        "3 2026-03-07T03:00 2026-03-07T08:00:00Z 2026-03-07T03:00-05:00 -",
                        "4 2026-03-07T03:30 2026-03-07T08:30:00Z 2026-03-07T03:30-05:00 -",
                        "5 2026-03-08T03:00 2026-03-08T07:00:00Z 2026-03-08T03:00-04:00 -",
                        "6 2026-03-08T03:30 2026-03-08T07:30:00Z 2026-03-08T03:30-04:00 -",
                        "7 2026-03-09T02:00 2026-03-09T06:00:00Z 2026-03-09T02:00-04:00 -",
                        "8 2026-03-09T02:30 2026-03-09T06:30:00Z 2026-03-09T02:30-04:00 -",
                        "9 2026-03-09T03:00 2026-03-09T07:00:00Z 2026-03-09T03:00-04:00 -",
                        "10 2026-03-09T03:30 2026-03-09T07:30:00Z 2026-03-09T03:30-04:00 -",
                        "11 2026-03-10T02:00 2026-03-10T06:00:00Z 2026-03-10T02:00-04:00 -",
                        "12 2026-03-10T02:30 2026-03-10T06:30:00Z 2026-03-10T02:30-04:00 -"));
    }

    @Test
    void aShiftedWallTimeComesAfterAValidOneWithAnEarlierInstant() {
        // Lord Howe's gap is 02:00 to 02:30: 02:15 shifted is 02:45 (+11:00), after 02:40 (+11:00) of the same day
        assertThat(expand("FREQ=DAILY;BYHOUR=2;BYMINUTE=15,40", "2026-10-03T02:15", "Australia/Lord_Howe",
                DstPolicy.DEFAULT, 6)).containsExactly(
                        "1 2026-10-03T02:15 2026-10-02T15:45:00Z 2026-10-03T02:15+10:30 -",
                        "2 2026-10-03T02:40 2026-10-02T16:10:00Z 2026-10-03T02:40+10:30 -",
                        "3 2026-10-04T02:40 2026-10-03T15:40:00Z 2026-10-04T02:40+11:00 -",
                        "4 2026-10-04T02:15 2026-10-03T15:45:00Z 2026-10-04T02:45+11:00 gap_shifted",
                        "5 2026-10-05T02:15 2026-10-04T15:15:00Z 2026-10-05T02:15+11:00 -",
                        "6 2026-10-05T02:40 2026-10-04T15:40:00Z 2026-10-05T02:40+11:00 -");
    }

    @Test
    void aShiftedWallTimeOnlyTiesWithTheOneItLandsOn() {
        // 02:00 and 02:45 shift onto 03:00 and 03:45, whose own occurrences are then dropped
        assertThat(expand("FREQ=DAILY;BYHOUR=2,3;BYMINUTE=0,45", "2026-03-08T00:00", "America/New_York",
                DstPolicy.DEFAULT, 4)).containsExactly(
                        "1 2026-03-08T00:00 2026-03-08T05:00:00Z 2026-03-08T00:00-05:00 -",
                        "2 2026-03-08T02:00 2026-03-08T07:00:00Z 2026-03-08T03:00-04:00 gap_shifted",
                        "3 2026-03-08T02:45 2026-03-08T07:45:00Z 2026-03-08T03:45-04:00 gap_shifted",
                        "4 2026-03-09T02:00 2026-03-09T06:00:00Z 2026-03-09T02:00-04:00 -");
    }

    @Test
    void nuukGapEndsAtMidnightSoSaturdayEveningShiftsOntoSunday() {
        // America/Nuuk springs forward from Saturday 23:00 to Sunday 00:00
        assertGap("America/Nuuk", "2026-03-28T23:00", "2026-03-29T00:00");

        assertThat(expand("FREQ=DAILY;BYHOUR=0,23;BYMINUTE=15,30", "2026-03-28T00:15", "America/Nuuk",
                DstPolicy.DEFAULT, 8)).containsExactly(
                        "1 2026-03-28T00:15 2026-03-28T02:15:00Z 2026-03-28T00:15-02:00 -",
                        "2 2026-03-28T00:30 2026-03-28T02:30:00Z 2026-03-28T00:30-02:00 -",
                        // Saturday 23:15 and 23:30 land on Sunday 00:15 and 00:30, which are then dropped
                        "3 2026-03-28T23:15 2026-03-29T01:15:00Z 2026-03-29T00:15-01:00 gap_shifted",
                        "4 2026-03-28T23:30 2026-03-29T01:30:00Z 2026-03-29T00:30-01:00 gap_shifted",
                        "5 2026-03-29T23:15 2026-03-30T00:15:00Z 2026-03-29T23:15-01:00 -",
                        "6 2026-03-29T23:30 2026-03-30T00:30:00Z 2026-03-29T23:30-01:00 -",
                        "7 2026-03-30T00:15 2026-03-30T01:15:00Z 2026-03-30T00:15-01:00 -",
                        "8 2026-03-30T00:30 2026-03-30T01:30:00Z 2026-03-30T00:30-01:00 -");
    }

    // America/Santiago: transitions at midnight

    @ParameterizedTest
    @MethodSource("policies")
    void santiagoGapAtMidnight(DstPolicy policy) {
        ZoneRules rules = ZoneId.of("America/Santiago").getRules();
        ZoneOffsetTransition spring = rules.nextTransition(Instant.parse("2022-07-01T00:00:00Z"));
        assertThat(spring.isGap()).isTrue();
        assertThat(spring.getDateTimeBefore()).isEqualTo(LocalDateTime.parse("2022-09-11T00:00"));
        assertThat(spring.getDateTimeAfter()).isEqualTo(LocalDateTime.parse("2022-09-11T01:00"));

        assertThat(expand("FREQ=DAILY", "2022-09-10T00:00", "America/Santiago", policy, 3)).isEqualTo(
                policy.gap() == Gap.SHIFT ? List.of(
                        "1 2022-09-10T00:00 2022-09-10T04:00:00Z 2022-09-10T00:00-04:00 -",
                        "2 2022-09-11T00:00 2022-09-11T04:00:00Z 2022-09-11T01:00-03:00 gap_shifted",
                        "3 2022-09-12T00:00 2022-09-12T03:00:00Z 2022-09-12T00:00-03:00 -")
                : List.of(
                        "1 2022-09-10T00:00 2022-09-10T04:00:00Z 2022-09-10T00:00-04:00 -",
                        "2 2022-09-12T00:00 2022-09-12T03:00:00Z 2022-09-12T00:00-03:00 -",
                        "3 2022-09-13T00:00 2022-09-13T03:00:00Z 2022-09-13T00:00-03:00 -"));
        assertThat(expand("FREQ=DAILY", "2022-09-10T00:30", "America/Santiago", policy, 2).get(1)).isEqualTo(
                policy.gap() == Gap.SHIFT
                        ? "2 2022-09-11T00:30 2022-09-11T04:30:00Z 2022-09-11T01:30-03:00 gap_shifted"
                        : "2 2022-09-12T00:30 2022-09-12T03:30:00Z 2022-09-12T00:30-03:00 -");
    }

    @ParameterizedTest
    @MethodSource("policies")
    void santiagoOverlapIsTheEveningBefore(DstPolicy policy) {
        ZoneRules rules = ZoneId.of("America/Santiago").getRules();
        ZoneOffsetTransition autumn = rules.nextTransition(Instant.parse("2023-01-01T00:00:00Z"));
        assertThat(autumn.isOverlap()).isTrue();
        // the clock goes from 2 April 00:00 back to 1 April 23:00: midnight itself is unambiguous
        assertThat(autumn.getDateTimeBefore()).isEqualTo(LocalDateTime.parse("2023-04-02T00:00"));
        assertThat(autumn.getDateTimeAfter()).isEqualTo(LocalDateTime.parse("2023-04-01T23:00"));

        assertThat(expand("FREQ=DAILY", "2023-04-01T00:00", "America/Santiago", policy, 3)).containsExactly(
                "1 2023-04-01T00:00 2023-04-01T03:00:00Z 2023-04-01T00:00-03:00 -",
                "2 2023-04-02T00:00 2023-04-02T04:00:00Z 2023-04-02T00:00-04:00 -",
                "3 2023-04-03T00:00 2023-04-03T04:00:00Z 2023-04-03T00:00-04:00 -");
        assertThat(expand("FREQ=DAILY", "2023-04-01T00:30", "America/Santiago", policy, 2).get(1))
                .isEqualTo("2 2023-04-02T00:30 2023-04-02T04:30:00Z 2023-04-02T00:30-04:00 -");
        assertThat(expand("FREQ=DAILY", "2023-03-31T23:30", "America/Santiago", policy, 3)).isEqualTo(
                policy.overlap() == Overlap.FIRST ? List.of(
                        "1 2023-03-31T23:30 2023-04-01T02:30:00Z 2023-03-31T23:30-03:00 -",
                        "2 2023-04-01T23:30 2023-04-02T02:30:00Z 2023-04-01T23:30-03:00 overlap_earlier",
                        "3 2023-04-02T23:30 2023-04-03T03:30:00Z 2023-04-02T23:30-04:00 -")
                : List.of(
                        "1 2023-03-31T23:30 2023-04-01T02:30:00Z 2023-03-31T23:30-03:00 -",
                        "2 2023-04-01T23:30 2023-04-02T03:30:00Z 2023-04-01T23:30-04:00 overlap_later",
                        "3 2023-04-02T23:30 2023-04-03T03:30:00Z 2023-04-02T23:30-04:00 -"));
    }

    // Asia/Tehran: DST was abolished after 2022

    @ParameterizedTest
    @MethodSource("policies")
    void tehranLastDstYears(DstPolicy policy) {
        assertGap("Asia/Tehran", "2021-03-22T00:00", "2021-03-22T01:00");
        assertGap("Asia/Tehran", "2022-03-22T00:00", "2022-03-22T01:00");
        assertOverlap("Asia/Tehran", "2022-09-22T00:00", "2022-09-21T23:00");

        assertThat(expand("FREQ=DAILY", "2021-03-21T00:30", "Asia/Tehran", policy, 3)).isEqualTo(
                policy.gap() == Gap.SHIFT ? List.of(
                        "1 2021-03-21T00:30 2021-03-20T21:00:00Z 2021-03-21T00:30+03:30 -",
                        "2 2021-03-22T00:30 2021-03-21T21:00:00Z 2021-03-22T01:30+04:30 gap_shifted",
                        "3 2021-03-23T00:30 2021-03-22T20:00:00Z 2021-03-23T00:30+04:30 -")
                : List.of(
                        "1 2021-03-21T00:30 2021-03-20T21:00:00Z 2021-03-21T00:30+03:30 -",
                        "2 2021-03-23T00:30 2021-03-22T20:00:00Z 2021-03-23T00:30+04:30 -",
                        "3 2021-03-24T00:30 2021-03-23T20:00:00Z 2021-03-24T00:30+04:30 -"));
        assertThat(expand("FREQ=DAILY", "2022-03-21T00:30", "Asia/Tehran", policy, 2).get(1)).isEqualTo(
                policy.gap() == Gap.SHIFT
                        ? "2 2022-03-22T00:30 2022-03-21T21:00:00Z 2022-03-22T01:30+04:30 gap_shifted"
                        : "2 2022-03-23T00:30 2022-03-22T20:00:00Z 2022-03-23T00:30+04:30 -");
        assertThat(expand("FREQ=DAILY", "2022-09-20T23:30", "Asia/Tehran", policy, 3).get(1)).isEqualTo(
                policy.overlap() == Overlap.FIRST
                        ? "2 2022-09-21T23:30 2022-09-21T19:00:00Z 2022-09-21T23:30+04:30 overlap_earlier"
                        : "2 2022-09-21T23:30 2022-09-21T20:00:00Z 2022-09-21T23:30+03:30 overlap_later");
    }

    @ParameterizedTest
    @MethodSource("policies")
    void tehranFromTwentyTwentyThreeHasNoTransitions(DstPolicy policy) {
        assertThat(ZoneId.of("Asia/Tehran").getRules().nextTransition(Instant.parse("2022-10-01T00:00:00Z")))
                .isNull();

        // where 2023's transitions would have been (22 March, 22 September): +03:30 all along, no notes
        assertThat(expand("FREQ=DAILY", "2023-03-21T00:30", "Asia/Tehran", policy, 3)).containsExactly(
                "1 2023-03-21T00:30 2023-03-20T21:00:00Z 2023-03-21T00:30+03:30 -",
                "2 2023-03-22T00:30 2023-03-21T21:00:00Z 2023-03-22T00:30+03:30 -",
                "3 2023-03-23T00:30 2023-03-22T21:00:00Z 2023-03-23T00:30+03:30 -");
        assertThat(expand("FREQ=DAILY", "2023-09-20T23:30", "Asia/Tehran", policy, 3)).containsExactly(
                "1 2023-09-20T23:30 2023-09-20T20:00:00Z 2023-09-20T23:30+03:30 -",
                "2 2023-09-21T23:30 2023-09-21T20:00:00Z 2023-09-21T23:30+03:30 -",
                "3 2023-09-22T23:30 2023-09-22T20:00:00Z 2023-09-22T23:30+03:30 -");
    }

    @ParameterizedTest
    @MethodSource("policies")
    void aStartInAGap(DstPolicy policy) {
        // shifted, the start is 03:30 EDT; the rule's own 03:30 that day is the same instant and is dropped
        assertThat(expand("FREQ=DAILY;BYHOUR=3,4", "2026-03-08T02:30", "America/New_York", policy, 3)).isEqualTo(
                policy.gap() == Gap.SHIFT ? List.of(
                        "1 2026-03-08T02:30 2026-03-08T07:30:00Z 2026-03-08T03:30-04:00 gap_shifted",
                        "2 2026-03-08T04:30 2026-03-08T08:30:00Z 2026-03-08T04:30-04:00 -",
                        "3 2026-03-09T03:30 2026-03-09T07:30:00Z 2026-03-09T03:30-04:00 -")
                : List.of(
                        "1 2026-03-08T03:30 2026-03-08T07:30:00Z 2026-03-08T03:30-04:00 -",
                        "2 2026-03-08T04:30 2026-03-08T08:30:00Z 2026-03-08T04:30-04:00 -",
                        "3 2026-03-09T03:30 2026-03-09T07:30:00Z 2026-03-09T03:30-04:00 -"));
    }
}
