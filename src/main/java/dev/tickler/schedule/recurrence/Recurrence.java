package dev.tickler.schedule.recurrence;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.zone.ZoneRules;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;

/**
 * A schedule's occurrences: {@code rule} evaluated in local time in {@code zone} from {@code start}, each wall time
 * turned into an instant under {@code policy}. Immutable; every iteration is lazy and starts afresh.
 *
 * <p>The start is occurrence 1 when it exists under the policy (and is within UNTIL), whether or not the rule
 * selects it. Instants strictly increase and numbers run 1, 2, 3, ...; a wall time skipped in a gap, or shifted onto
 * or before an instant already produced, is not an occurrence and is not counted for COUNT. Wall times run from
 * {@link #EARLIEST} to {@link #LATEST}; the occurrences end there (or at number {@link Integer#MAX_VALUE}).
 */
public final class Recurrence implements Iterable<Occurrence> {

    /** The earliest supported start. */
    public static final LocalDateTime EARLIEST = LocalDateTime.of(1970, 1, 1, 0, 0);
    /** The latest supported wall time; no occurrence is produced after it. */
    public static final LocalDateTime LATEST = LocalDateTime.of(9999, 12, 30, 23, 59, 59);

    private final LocalDateTime start;
    private final ZoneId zone;
    private final ZoneRules rules;
    private final RecurrenceRule rule;
    private final DstPolicy policy;
    private final List<LocalTime> times;

    private Recurrence(LocalDateTime start, ZoneId zone, RecurrenceRule rule, DstPolicy policy) {
        this.start = start;
        this.zone = zone;
        this.rules = zone.getRules();
        this.rule = rule;
        this.policy = policy;
        this.times = times(rule, start.toLocalTime());
    }

    /**
     * @param start the first occurrence's wall time, whole seconds, from {@link #EARLIEST} to {@link #LATEST}
     * @throws IllegalArgumentException when {@code start} has a fraction of a second or is out of range
     */
    public static Recurrence of(LocalDateTime start, ZoneId zone, RecurrenceRule rule, DstPolicy policy) {
        Objects.requireNonNull(start, "start");
        Objects.requireNonNull(zone, "zone");
        Objects.requireNonNull(rule, "rule");
        Objects.requireNonNull(policy, "policy");
        if (start.getNano() != 0) {
            throw new IllegalArgumentException("start must be whole seconds: " + start);
        }
        if (start.isBefore(EARLIEST) || start.isAfter(LATEST)) {
            throw new IllegalArgumentException("start must be from " + EARLIEST + " to " + LATEST + ": " + start);
        }
        return new Recurrence(start, zone, rule, policy);
    }

    /** The times of day of every selected date, in order: BYHOUR x BYMINUTE, each defaulting to the start's. */
    private static List<LocalTime> times(RecurrenceRule rule, LocalTime start) {
        List<Integer> hours = rule.byHour().isEmpty() ? List.of(start.getHour()) : rule.byHour();
        List<Integer> minutes = rule.byMinute().isEmpty() ? List.of(start.getMinute()) : rule.byMinute();
        List<LocalTime> times = new ArrayList<>(hours.size() * minutes.size());
        for (int hour : hours) {
            for (int minute : minutes) {
                times.add(LocalTime.of(hour, minute, start.getSecond()));
            }
        }
        return List.copyOf(times);
    }

    public LocalDateTime start() {
        return start;
    }

    public ZoneId zone() {
        return zone;
    }

    public RecurrenceRule rule() {
        return rule;
    }

    public DstPolicy policy() {
        return policy;
    }

    ZoneRules rules() {
        return rules;
    }

    List<LocalTime> times() {
        return times;
    }

    /** The occurrences from number 1, computed as they are read. */
    @Override
    public Iterator<Occurrence> iterator() {
        return Expansion.fromStart(this);
    }

    /** The occurrences from number 1, computed as they are read; possibly infinite, so limit it. */
    public Stream<Occurrence> stream() {
        return stream(iterator());
    }

    /**
     * Occurrence 1, or empty when the schedule has no occurrence at all (a start that does not exist under the
     * policy and a rule that never matches again, or a bound before any occurrence): such a schedule should be
     * refused. The search is bounded (see {@link CandidateDates}), so this returns quickly even then.
     */
    public Optional<Occurrence> first() {
        Iterator<Occurrence> occurrences = iterator();
        return occurrences.hasNext() ? Optional.of(occurrences.next()) : Optional.empty();
    }

    /**
     * The occurrences after occurrence {@code number} whose wall time was {@code wallTime}, numbered from
     * {@code number + 1}: exactly what iterating from the start would give after it, without replaying the
     * earlier ones. The pair must come from this same schedule (start, zone, rule and policy).
     *
     * @throws IllegalArgumentException when {@code number} is below 1, {@code wallTime} is before the start, or
     *         {@code wallTime} does not exist under the policy and so cannot have been an occurrence
     */
    public Stream<Occurrence> after(int number, LocalDateTime wallTime) {
        Objects.requireNonNull(wallTime, "wallTime");
        if (number < 1) {
            throw new IllegalArgumentException("occurrence numbers start at 1: " + number);
        }
        if (wallTime.isBefore(start)) {
            throw new IllegalArgumentException("wall time " + wallTime + " is before the start " + start);
        }
        Instant instant = DstResolver.resolve(wallTime, rules, policy)
                .orElseThrow(() -> new IllegalArgumentException(
                        "wall time " + wallTime + " does not exist in " + zone + " under gap=skip"))
                .instant();
        return stream(Expansion.after(this, number, instant));
    }

    /**
     * The occurrences whose instant is at or after {@code notBefore}, numbered as from the start. This replays
     * every earlier occurrence to number them, so its cost grows with their count (a daily rule started five years
     * ago: under 2,000 steps); a caller that knows an earlier occurrence should use {@link #after} instead.
     */
    public Stream<Occurrence> from(Instant notBefore) {
        Objects.requireNonNull(notBefore, "notBefore");
        return stream().dropWhile(occurrence -> occurrence.instant().isBefore(notBefore));
    }

    private static Stream<Occurrence> stream(Iterator<Occurrence> occurrences) {
        return StreamSupport.stream(Spliterators.spliteratorUnknownSize(occurrences,
                Spliterator.ORDERED | Spliterator.DISTINCT | Spliterator.NONNULL | Spliterator.IMMUTABLE), false);
    }

    @Override
    public String toString() {
        return "Recurrence[start=" + start + ", zone=" + zone + ", rule=" + rule + ", policy=" + policy + "]";
    }
}
