package dev.tickler.schedule.recurrence;

import java.time.DateTimeException;
import java.time.DayOfWeek;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Strict parser for {@link RecurrenceRule#parse}; every refusal names the part so that a client can fix it. */
final class RecurrenceRuleParser {

    private static final List<String> SUPPORTED =
            List.of("FREQ", "INTERVAL", "BYDAY", "BYMONTHDAY", "BYHOUR", "BYMINUTE", "COUNT", "UNTIL");
    private static final String USE_SUPPORTED = "use " + String.join(", ", SUPPORTED);
    private static final Set<String> UNSUPPORTED =
            Set.of("BYSECOND", "BYSETPOS", "WKST", "BYMONTH", "BYYEARDAY", "BYWEEKNO");
    private static final Set<String> UNSUPPORTED_FREQUENCIES = Set.of("YEARLY", "HOURLY", "MINUTELY", "SECONDLY");
    private static final String USE_FREQUENCIES = "use DAILY, WEEKLY or MONTHLY";
    private static final String PREFIX = "RRULE:";

    private static final Pattern UNSIGNED = Pattern.compile("[0-9]+");
    private static final Pattern SIGNED = Pattern.compile("[+-]?[0-9]+");
    private static final Pattern WEEKDAY = Pattern.compile("([+-]?[0-9]{1,2})?(MO|TU|WE|TH|FR|SA|SU)");
    private static final Pattern UNTIL = Pattern.compile("([0-9]{4})([0-9]{2})([0-9]{2})(?:T([0-9]{2})([0-9]{2})([0-9]{2})(Z)?)?");
    private static final int MAX_ECHO = 40;

    private RecurrenceRuleParser() {
    }

    static RecurrenceRule parse(String rrule) {
        String body = rrule != null && rrule.regionMatches(true, 0, PREFIX, 0, PREFIX.length())
                ? rrule.substring(PREFIX.length()) : rrule;
        if (body == null || body.isEmpty()) {
            throw invalid("RRULE is empty; it needs at least FREQ, e.g. FREQ=DAILY");
        }
        if (body.chars().anyMatch(Character::isWhitespace)) {
            throw invalid("RRULE must not contain whitespace");
        }
        Map<String, String> parts = split(body);

        String frequencyText = parts.get("FREQ");
        if (frequencyText == null) {
            throw invalid("FREQ is required; " + USE_FREQUENCIES);
        }
        Frequency frequency = frequency(frequencyText);
        int interval = parts.containsKey("INTERVAL") ? positive("INTERVAL", parts.get("INTERVAL")) : 1;
        List<ByDay> byDay = list(parts, "BYDAY", item -> byDay(item, frequency));
        List<Integer> byMonthDay = list(parts, "BYMONTHDAY", RecurrenceRuleParser::monthDay);
        List<Integer> byHour = list(parts, "BYHOUR", item -> unsigned("BYHOUR", item, 23));
        List<Integer> byMinute = list(parts, "BYMINUTE", item -> unsigned("BYMINUTE", item, 59));
        Integer count = parts.containsKey("COUNT") ? positive("COUNT", parts.get("COUNT")) : null;
        Until until = parts.containsKey("UNTIL") ? until(parts.get("UNTIL")) : null;

        if (count != null && until != null) {
            throw invalid("COUNT and UNTIL cannot both be given; use one of them");
        }
        if (frequency == Frequency.WEEKLY && !byMonthDay.isEmpty()) {
            throw invalid("BYMONTHDAY is not allowed with FREQ=WEEKLY; use FREQ=DAILY or FREQ=MONTHLY");
        }
        return new RecurrenceRule(frequency, interval, byDay, byMonthDay, byHour, byMinute, count, until);
    }

    /** Upper-cased part names to their values, refusing empty, unknown, unsupported and repeated parts. */
    private static Map<String, String> split(String body) {
        Map<String, String> parts = new LinkedHashMap<>();
        for (String part : body.split(";", -1)) {
            if (part.isEmpty()) {
                throw invalid("RRULE has an empty part; check for ';;' or a leading or trailing ';'");
            }
            int equals = part.indexOf('=');
            String rawName = equals < 0 ? part : part.substring(0, equals);
            String name = rawName.toUpperCase(Locale.ROOT);
            if (rawName.isEmpty()) {
                throw invalid("RRULE has a part without a name: " + echo(part));
            }
            if (UNSUPPORTED.contains(name)) {
                throw invalid(name + " is not supported; " + USE_SUPPORTED);
            }
            if (!SUPPORTED.contains(name)) {
                throw invalid(echo(rawName) + " is not an RRULE part; " + USE_SUPPORTED);
            }
            if (equals < 0 || equals == part.length() - 1) {
                throw invalid(name + " has no value; write it as " + name + "=value");
            }
            if (parts.putIfAbsent(name, part.substring(equals + 1)) != null) {
                throw invalid(name + " is given more than once");
            }
        }
        return parts;
    }

    private static Frequency frequency(String text) {
        String value = text.toUpperCase(Locale.ROOT);
        for (Frequency frequency : Frequency.values()) {
            if (frequency.name().equals(value)) {
                return frequency;
            }
        }
        if (UNSUPPORTED_FREQUENCIES.contains(value)) {
            throw invalid("FREQ=" + value + " is not supported; " + USE_FREQUENCIES);
        }
        throw invalid("FREQ=" + echo(text) + " is not a frequency; " + USE_FREQUENCIES);
    }

    private static <T> List<T> list(Map<String, String> parts, String name, Function<String, T> item) {
        String value = parts.get(name);
        if (value == null) {
            return List.of();
        }
        List<T> values = new ArrayList<>();
        Set<T> seen = new HashSet<>();
        for (String text : value.split(",", -1)) {
            if (text.isEmpty()) {
                throw invalid(name + " has an empty value; check for ',,' or a leading or trailing ','");
            }
            T parsed = item.apply(text);
            if (!seen.add(parsed)) {
                throw invalid(name + " lists " + parsed + " more than once");
            }
            values.add(parsed);
        }
        return values;
    }

    private static ByDay byDay(String text, Frequency frequency) {
        Matcher matcher = WEEKDAY.matcher(text.toUpperCase(Locale.ROOT));
        if (!matcher.matches()) {
            throw invalid("BYDAY=" + echo(text) + " is not a weekday; use MO, TU, WE, TH, FR, SA or SU"
                    + (frequency == Frequency.MONTHLY ? ", optionally with an ordinal as in 2MO or -1FR" : ""));
        }
        DayOfWeek day = weekday(matcher.group(2));
        if (matcher.group(1) == null) {
            return new ByDay(0, day);
        }
        if (frequency != Frequency.MONTHLY) {
            throw invalid("BYDAY=" + text + " has an ordinal, which only FREQ=MONTHLY allows; use the plain weekday");
        }
        int ordinal = Integer.parseInt(matcher.group(1));
        if (ordinal == 0 || Math.abs(ordinal) > 5) {
            throw invalid("BYDAY=" + text + " has an ordinal out of range 1..5 or -5..-1");
        }
        return new ByDay(ordinal, day);
    }

    private static DayOfWeek weekday(String code) {
        for (DayOfWeek day : DayOfWeek.values()) {
            if (day.name().startsWith(code)) {
                return day;
            }
        }
        throw new IllegalStateException(code);
    }

    private static int monthDay(String text) {
        if (!SIGNED.matcher(text).matches()) {
            throw invalid("BYMONTHDAY=" + echo(text) + " is not a number");
        }
        int day = number("BYMONTHDAY", text);
        if (day == 0 || Math.abs(day) > 31) {
            throw invalid("BYMONTHDAY=" + echo(text) + " is out of range 1..31 or -31..-1");
        }
        return day;
    }

    private static int unsigned(String name, String text, int max) {
        if (!UNSIGNED.matcher(text).matches()) {
            throw invalid(name + "=" + echo(text) + " is not a number");
        }
        int value = number(name, text);
        if (value > max) {
            throw invalid(name + "=" + echo(text) + " is out of range 0.." + max);
        }
        return value;
    }

    private static int positive(String name, String text) {
        if (!UNSIGNED.matcher(text).matches()) {
            throw invalid(name + "=" + echo(text) + " is not a whole number");
        }
        int value = number(name, text);
        if (value < 1) {
            throw invalid(name + "=" + echo(text) + " must be 1 or more");
        }
        return value;
    }

    private static int number(String name, String text) {
        try {
            return Integer.parseInt(text);
        } catch (NumberFormatException tooLarge) {
            throw invalid(name + "=" + echo(text) + " is too large");
        }
    }

    private static Until until(String text) {
        Matcher matcher = UNTIL.matcher(text.toUpperCase(Locale.ROOT));
        if (!matcher.matches()) {
            throw invalid("UNTIL=" + echo(text) + " is not a date (YYYYMMDD), a local date-time (YYYYMMDDTHHMMSS)"
                    + " or a UTC date-time (YYYYMMDDTHHMMSSZ)");
        }
        LocalDate date;
        try {
            date = LocalDate.of(group(matcher, 1), group(matcher, 2), group(matcher, 3));
        } catch (DateTimeException e) {
            throw invalid("UNTIL=" + text + " is not a valid date");
        }
        if (date.getYear() < 1970) {
            throw invalid("UNTIL=" + text + " is out of range: years 1970 to 9999");
        }
        if (matcher.group(4) == null) {
            return new Until(Until.Form.DATE, date.atStartOfDay());
        }
        LocalTime time;
        try {
            time = LocalTime.of(group(matcher, 4), group(matcher, 5), group(matcher, 6));
        } catch (DateTimeException e) {
            throw invalid("UNTIL=" + text + " is not a valid time of day");
        }
        LocalDateTime value = date.atTime(time);
        return new Until(matcher.group(7) == null ? Until.Form.LOCAL_DATE_TIME : Until.Form.UTC, value);
    }

    private static int group(Matcher matcher, int group) {
        return Integer.parseInt(matcher.group(group));
    }

    /** The client's text, cut short so that a long value does not flood the error response. */
    private static String echo(String text) {
        return text.length() <= MAX_ECHO ? text : text.substring(0, MAX_ECHO) + "…";
    }

    private static InvalidRecurrenceException invalid(String message) {
        return new InvalidRecurrenceException(message);
    }
}
