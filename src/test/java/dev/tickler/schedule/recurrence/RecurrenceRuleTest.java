package dev.tickler.schedule.recurrence;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.DayOfWeek;
import java.time.LocalDateTime;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class RecurrenceRuleTest {

    @Test
    void parsesEverySupportedPart() {
        RecurrenceRule rule = RecurrenceRule.parse(
                "FREQ=MONTHLY;INTERVAL=3;BYDAY=-1FR,2MO,TU;BYMONTHDAY=-1,15;BYHOUR=17,9;BYMINUTE=30,0;COUNT=10");

        assertThat(rule.frequency()).isEqualTo(Frequency.MONTHLY);
        assertThat(rule.interval()).isEqualTo(3);
        assertThat(rule.byDay()).containsExactly(
                new ByDay(2, DayOfWeek.MONDAY), new ByDay(0, DayOfWeek.TUESDAY), new ByDay(-1, DayOfWeek.FRIDAY));
        assertThat(rule.byMonthDay()).containsExactly(-1, 15);
        assertThat(rule.byHour()).containsExactly(9, 17);
        assertThat(rule.byMinute()).containsExactly(0, 30);
        assertThat(rule.count()).hasValue(10);
        assertThat(rule.until()).isEmpty();
    }

    @Test
    void defaultsToIntervalOneAndNoBound() {
        RecurrenceRule rule = RecurrenceRule.parse("FREQ=DAILY");

        assertThat(rule.interval()).isEqualTo(1);
        assertThat(rule.count()).isEmpty();
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "FREQ=DAILY                                    | FREQ=DAILY",
        "RRULE:FREQ=DAILY                              | FREQ=DAILY",
        "rrule:freq=daily;interval=1                   | FREQ=DAILY",
        "FREQ=WEEKLY;INTERVAL=2;BYDAY=FR,we,MO         | FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,WE,FR",
        "COUNT=5;FREQ=DAILY;BYMINUTE=30,0;BYHOUR=17,9  | FREQ=DAILY;BYHOUR=9,17;BYMINUTE=0,30;COUNT=5",
        "FREQ=MONTHLY;BYDAY=+2mo,-1Fr                  | FREQ=MONTHLY;BYDAY=2MO,-1FR",
        "FREQ=MONTHLY;BYMONTHDAY=+31,-1,1              | FREQ=MONTHLY;BYMONTHDAY=-1,1,31",
        "FREQ=DAILY;INTERVAL=02;BYHOUR=09              | FREQ=DAILY;INTERVAL=2;BYHOUR=9",
        "FREQ=DAILY;UNTIL=20261201                     | FREQ=DAILY;UNTIL=20261201",
        "FREQ=DAILY;UNTIL=20261201t090000              | FREQ=DAILY;UNTIL=20261201T090000",
        "FREQ=DAILY;UNTIL=20261201T090000z             | FREQ=DAILY;UNTIL=20261201T090000Z",
    })
    void canonicalText(String text, String canonical) {
        RecurrenceRule rule = RecurrenceRule.parse(text);

        assertThat(rule).hasToString(canonical);
        assertThat(RecurrenceRule.parse(canonical)).isEqualTo(rule).hasSameHashCodeAs(rule);
    }

    @Test
    void untilForms() {
        assertThat(RecurrenceRule.parse("FREQ=DAILY;UNTIL=20261201").until()).get()
                .satisfies(until -> {
                    assertThat(until.form()).isEqualTo(Until.Form.DATE);
                    assertThat(until.lastWallTime()).isEqualTo(LocalDateTime.of(2026, 12, 1, 23, 59, 59, 999_999_999));
                    assertThat(until.lastInstant()).isNull();
                });
        assertThat(RecurrenceRule.parse("FREQ=DAILY;UNTIL=20261201T090000").until()).get()
                .satisfies(until -> {
                    assertThat(until.form()).isEqualTo(Until.Form.LOCAL_DATE_TIME);
                    assertThat(until.lastWallTime()).isEqualTo(LocalDateTime.of(2026, 12, 1, 9, 0));
                    assertThat(until.lastInstant()).isNull();
                });
        assertThat(RecurrenceRule.parse("FREQ=DAILY;UNTIL=20261201T090000Z").until()).get()
                .satisfies(until -> {
                    assertThat(until.form()).isEqualTo(Until.Form.UTC);
                    assertThat(until.lastWallTime()).isNull();
                    assertThat(until.lastInstant()).hasToString("2026-12-01T09:00:00Z");
                });
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', quoteCharacter = '"', value = {
        // the whole text
        "RRULE:                              | RRULE is empty",
        "FREQ=DAILY; COUNT=2                 | RRULE must not contain whitespace",
        "FREQ=DAILY;                         | RRULE has an empty part",
        "FREQ=DAILY;;COUNT=2                 | RRULE has an empty part",
        "=DAILY                              | RRULE has a part without a name: =DAILY",
        // names
        "COUNT=2                             | FREQ is required; use DAILY, WEEKLY or MONTHLY",
        "FREQ=DAILY;BYSECOND=0               | BYSECOND is not supported; use FREQ, INTERVAL, BYDAY, BYMONTHDAY, BYHOUR, BYMINUTE, COUNT, UNTIL",
        "FREQ=MONTHLY;BYSETPOS=-1;BYDAY=FR   | BYSETPOS is not supported; use FREQ,",
        "FREQ=WEEKLY;WKST=SU                 | WKST is not supported",
        "FREQ=DAILY;BYMONTH=1                | BYMONTH is not supported",
        "FREQ=DAILY;byyearday=1              | BYYEARDAY is not supported",
        "FREQ=DAILY;BYWEEKNO=1               | BYWEEKNO is not supported",
        "FREQ=DAILY;FOO=1                    | FOO is not an RRULE part; use FREQ, INTERVAL,",
        "FREQ=DAILY;X-NAME=1                 | X-NAME is not an RRULE part",
        "FREQ=DAILY;COUNT                    | COUNT has no value; write it as COUNT=value",
        "FREQ=DAILY;COUNT=                   | COUNT has no value",
        "FREQ=DAILY;freq=WEEKLY              | FREQ is given more than once",
        "FREQ=DAILY;BYHOUR=9;BYHOUR=10       | BYHOUR is given more than once",
        // FREQ
        "FREQ=YEARLY                         | FREQ=YEARLY is not supported; use DAILY, WEEKLY or MONTHLY",
        "FREQ=hourly                         | FREQ=HOURLY is not supported",
        "FREQ=MINUTELY                       | FREQ=MINUTELY is not supported",
        "FREQ=SECONDLY                       | FREQ=SECONDLY is not supported",
        "FREQ=FORTNIGHTLY                    | FREQ=FORTNIGHTLY is not a frequency; use DAILY, WEEKLY or MONTHLY",
        // INTERVAL and COUNT
        "FREQ=DAILY;INTERVAL=0               | INTERVAL=0 must be 1 or more",
        "FREQ=DAILY;INTERVAL=-1              | INTERVAL=-1 is not a whole number",
        "FREQ=DAILY;INTERVAL=two             | INTERVAL=two is not a whole number",
        "FREQ=DAILY;INTERVAL=1.5             | INTERVAL=1.5 is not a whole number",
        "FREQ=DAILY;INTERVAL=99999999999     | INTERVAL=99999999999 is too large",
        "FREQ=DAILY;COUNT=0                  | COUNT=0 must be 1 or more",
        "FREQ=DAILY;COUNT=+3                 | COUNT=+3 is not a whole number",
        "FREQ=DAILY;COUNT=2;UNTIL=20270101   | COUNT and UNTIL cannot both be given",
        // BYDAY
        "FREQ=WEEKLY;BYDAY=                  | BYDAY has no value",
        "FREQ=WEEKLY;BYDAY=MO,,FR            | BYDAY has an empty value",
        "FREQ=WEEKLY;BYDAY=MO,               | BYDAY has an empty value",
        "FREQ=WEEKLY;BYDAY=MON               | BYDAY=MON is not a weekday; use MO, TU, WE, TH, FR, SA or SU",
        "FREQ=MONTHLY;BYDAY=XX               | BYDAY=XX is not a weekday; use MO, TU, WE, TH, FR, SA or SU, optionally with an ordinal as in 2MO or -1FR",
        "FREQ=MONTHLY;BYDAY=+MO              | BYDAY=+MO is not a weekday",
        "FREQ=WEEKLY;BYDAY=2MO               | BYDAY=2MO has an ordinal, which only FREQ=MONTHLY allows",
        "BYDAY=-1FR;FREQ=DAILY               | BYDAY=-1FR has an ordinal, which only FREQ=MONTHLY allows",
        "FREQ=MONTHLY;BYDAY=0MO              | BYDAY=0MO has an ordinal out of range 1..5 or -5..-1",
        "FREQ=MONTHLY;BYDAY=6MO              | BYDAY=6MO has an ordinal out of range 1..5 or -5..-1",
        "FREQ=MONTHLY;BYDAY=-6MO             | BYDAY=-6MO has an ordinal out of range",
        "FREQ=MONTHLY;BYDAY=1MO,+1mo         | BYDAY lists 1MO more than once",
        // BYMONTHDAY
        "FREQ=MONTHLY;BYMONTHDAY=0           | BYMONTHDAY=0 is out of range 1..31 or -31..-1",
        "FREQ=MONTHLY;BYMONTHDAY=32          | BYMONTHDAY=32 is out of range 1..31 or -31..-1",
        "FREQ=MONTHLY;BYMONTHDAY=-32         | BYMONTHDAY=-32 is out of range",
        "FREQ=MONTHLY;BYMONTHDAY=first       | BYMONTHDAY=first is not a number",
        "FREQ=MONTHLY;BYMONTHDAY=1,01        | BYMONTHDAY lists 1 more than once",
        "FREQ=WEEKLY;BYMONTHDAY=1            | BYMONTHDAY is not allowed with FREQ=WEEKLY",
        // BYHOUR and BYMINUTE
        "FREQ=DAILY;BYHOUR=24                | BYHOUR=24 is out of range 0..23",
        "FREQ=DAILY;BYHOUR=9,24              | BYHOUR=24 is out of range 0..23",
        "FREQ=DAILY;BYHOUR=-1                | BYHOUR=-1 is not a number",
        "FREQ=DAILY;BYHOUR=9,9               | BYHOUR lists 9 more than once",
        "FREQ=DAILY;BYMINUTE=60              | BYMINUTE=60 is out of range 0..59",
        "FREQ=DAILY;BYMINUTE=a               | BYMINUTE=a is not a number",
        "FREQ=DAILY;BYMINUTE=,               | BYMINUTE has an empty value",
        // UNTIL
        "FREQ=DAILY;UNTIL=2026-12-01         | UNTIL=2026-12-01 is not a date (YYYYMMDD), a local date-time (YYYYMMDDTHHMMSS) or a UTC date-time (YYYYMMDDTHHMMSSZ)",
        "FREQ=DAILY;UNTIL=20261201T0900      | UNTIL=20261201T0900 is not a date",
        "FREQ=DAILY;UNTIL=20261201T090000+01 | UNTIL=20261201T090000+01 is not a date",
        "FREQ=DAILY;UNTIL=20270229           | UNTIL=20270229 is not a valid date",
        "FREQ=DAILY;UNTIL=20261301           | UNTIL=20261301 is not a valid date",
        "FREQ=DAILY;UNTIL=20261201T240000    | UNTIL=20261201T240000 is not a valid time of day",
        "FREQ=DAILY;UNTIL=20261201T235960Z   | UNTIL=20261201T235960Z is not a valid time of day",
        "FREQ=DAILY;UNTIL=19691231           | UNTIL=19691231 is out of range: years 1970 to 9999",
    })
    void refusesWithAMessageNamingThePart(String text, String message) {
        assertThatThrownBy(() -> RecurrenceRule.parse(text))
                .isInstanceOf(InvalidRecurrenceException.class)
                .hasMessageStartingWith(message);
    }

    @Test
    void refusesNothing() {
        assertThatThrownBy(() -> RecurrenceRule.parse(null))
                .isInstanceOf(InvalidRecurrenceException.class)
                .hasMessage("RRULE is empty; it needs at least FREQ, e.g. FREQ=DAILY");
        assertThatThrownBy(() -> RecurrenceRule.parse(""))
                .isInstanceOf(InvalidRecurrenceException.class)
                .hasMessage("RRULE is empty; it needs at least FREQ, e.g. FREQ=DAILY");
    }

    @Test
    void echoesOnlyTheStartOfALongValue() {
        String junk = "x".repeat(5000);

        assertThatThrownBy(() -> RecurrenceRule.parse("FREQ=DAILY;" + junk + "=1"))
                .hasMessage("x".repeat(40) + "… is not an RRULE part; "
                        + "use FREQ, INTERVAL, BYDAY, BYMONTHDAY, BYHOUR, BYMINUTE, COUNT, UNTIL");
    }
}
