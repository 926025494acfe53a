package dev.tickler.schedule.recurrence;

import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.StringJoiner;
import java.util.stream.Collectors;

/**
 * A parsed RRULE in the supported subset of RFC 5545: FREQ (DAILY, WEEKLY, MONTHLY), INTERVAL, BYDAY (ordinals only
 * with MONTHLY), BYMONTHDAY (not with WEEKLY), BYHOUR, BYMINUTE, and at most one of COUNT and UNTIL.
 *
 * <p>Immutable. {@link #toString()} is the canonical text: parts in that order, INTERVAL=1 left out, list values
 * sorted; parsing it gives an equal rule.
 */
public final class RecurrenceRule {

    private final Frequency frequency;
    private final int interval;
    private final List<ByDay> byDay;
    private final List<Integer> byMonthDay;
    private final List<Integer> byHour;
    private final List<Integer> byMinute;
    private final Integer count;
    private final Until until;
    private final String canonical;

    RecurrenceRule(Frequency frequency, int interval, List<ByDay> byDay, List<Integer> byMonthDay,
            List<Integer> byHour, List<Integer> byMinute, Integer count, Until until) {
        this.frequency = frequency;
        this.interval = interval;
        this.byDay = byDay.stream().sorted(ByDay.CANONICAL_ORDER).toList();
        this.byMonthDay = byMonthDay.stream().sorted().toList();
        this.byHour = byHour.stream().sorted().toList();
        this.byMinute = byMinute.stream().sorted().toList();
        this.count = count;
        this.until = until;
        this.canonical = canonicalText();
    }

    /**
     * Parses an RRULE value, with or without a leading {@code RRULE:}. Part names and keyword values (FREQ values,
     * weekday codes, the T and Z of UNTIL) are case-insensitive; whitespace, empty parts, repeated parts and
     * repeated list values are refused.
     *
     * @throws InvalidRecurrenceException naming the offending part, fit to be shown to the client
     */
    public static RecurrenceRule parse(String rrule) {
        return RecurrenceRuleParser.parse(rrule);
    }

    public Frequency frequency() {
        return frequency;
    }

    public int interval() {
        return interval;
    }

    /** The COUNT part, if given. */
    public OptionalInt count() {
        return count == null ? OptionalInt.empty() : OptionalInt.of(count);
    }

    List<ByDay> byDay() {
        return byDay;
    }

    List<Integer> byMonthDay() {
        return byMonthDay;
    }

    List<Integer> byHour() {
        return byHour;
    }

    List<Integer> byMinute() {
        return byMinute;
    }

    Optional<Until> until() {
        return Optional.ofNullable(until);
    }

    private String canonicalText() {
        StringJoiner text = new StringJoiner(";");
        text.add("FREQ=" + frequency);
        if (interval != 1) {
            text.add("INTERVAL=" + interval);
        }
        addList(text, "BYDAY", byDay);
        addList(text, "BYMONTHDAY", byMonthDay);
        addList(text, "BYHOUR", byHour);
        addList(text, "BYMINUTE", byMinute);
        if (count != null) {
            text.add("COUNT=" + count);
        }
        if (until != null) {
            text.add("UNTIL=" + until);
        }
        return text.toString();
    }

    private static void addList(StringJoiner text, String name, List<?> values) {
        if (!values.isEmpty()) {
            text.add(name + "=" + values.stream().map(Object::toString).collect(Collectors.joining(",")));
        }
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof RecurrenceRule rule && canonical.equals(rule.canonical);
    }

    @Override
    public int hashCode() {
        return canonical.hashCode();
    }

    @Override
    public String toString() {
        return canonical;
    }
}
