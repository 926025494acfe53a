package dev.tickler.schedule.recurrence;

import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.Comparator;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.PriorityQueue;

/**
 * Lazily expands a {@link Recurrence} into occurrences.
 *
 * <p>The occurrences are, apart from the start which always comes first when it exists, the rule's candidate wall
 * times resolved under the DST policy, in order of instant; a candidate whose instant is not after the previous
 * occurrence's is dropped (so a wall time shifted onto an instant already produced is not counted, and on a tie the
 * earlier wall time wins). A wall time shifted out of a gap can land after later wall times (02:15 shifted to 02:45
 * comes after 02:40 in a half-hour gap), even on the next day when the gap ends at midnight, so candidates wait in a
 * queue until no wall time still to be generated could resolve to an earlier instant. Because the outcome depends
 * only on the set of candidates and the last instant produced, expansion can resume from any occurrence.
 */
final class Expansion implements Iterator<Occurrence> {

    /** Offsets are within ±18 hours, so a wall time's instant is within 18 hours of the wall time read as UTC. */
    private static final long MAX_OFFSET_SECONDS = 18 * 3600;

    private static final Comparator<Candidate> BY_INSTANT =
            Comparator.comparing(Candidate::instant).thenComparing(Candidate::wallTime);

    private record Candidate(LocalDateTime wallTime, Instant instant, DstNote note) {
    }

    private final Recurrence recurrence;
    private final CandidateDates dates;
    private final LocalDateTime lastWallTime;
    private final Instant lastInstant;
    private final int count;
    private final PriorityQueue<Candidate> queue = new PriorityQueue<>(BY_INSTANT);

    private Candidate start;
    private Instant previous;
    private int number;
    private Occurrence next;

    private Expansion(Recurrence recurrence, LocalDate from, Candidate start, Instant previous, int number) {
        this.recurrence = recurrence;
        RecurrenceRule rule = recurrence.rule();
        Until until = rule.until().orElse(null);
        LocalDate lastDate = Recurrence.LATEST.toLocalDate();
        if (until != null && until.lastPossibleDate().isBefore(lastDate)) {
            lastDate = until.lastPossibleDate();
        }
        this.dates = new CandidateDates(rule, recurrence.start().toLocalDate(), from, lastDate);
        this.lastWallTime = until == null ? null : until.lastWallTime();
        this.lastInstant = until == null ? null : until.lastInstant();
        this.count = rule.count().orElse(Integer.MAX_VALUE);
        this.start = start != null && withinUntil(start) ? start : null;
        this.previous = previous;
        this.number = number;
    }

    /** From occurrence 1: the start, if it exists under the policy, then the rule's later wall times. */
    static Expansion fromStart(Recurrence recurrence) {
        LocalDateTime start = recurrence.start();
        Candidate first = DstResolver.resolve(start, recurrence.rules(), recurrence.policy())
                .map(resolved -> new Candidate(start, resolved.instant(), resolved.note()))
                .orElse(null);
        return new Expansion(recurrence, start.toLocalDate(), first, null, 0);
    }

    /** After occurrence {@code number}, whose instant was {@code instant}. */
    static Expansion after(Recurrence recurrence, int number, Instant instant) {
        // a wall time before this one read as UTC minus 18 hours resolves to an instant before it: never needed
        LocalDate from = LocalDateTime.ofEpochSecond(instant.getEpochSecond() - MAX_OFFSET_SECONDS, 0, ZoneOffset.UTC)
                .toLocalDate();
        LocalDate startDate = recurrence.start().toLocalDate();
        return new Expansion(recurrence, from.isBefore(startDate) ? startDate : from, null, instant, number);
    }

    @Override
    public boolean hasNext() {
        if (next == null) {
            next = computeNext();
        }
        return next != null;
    }

    @Override
    public Occurrence next() {
        if (!hasNext()) {
            throw new NoSuchElementException();
        }
        Occurrence occurrence = next;
        next = null;
        return occurrence;
    }

    private Occurrence computeNext() {
        if (number >= count || number == Integer.MAX_VALUE) {
            return null;
        }
        if (start != null) {
            Candidate first = start;
            start = null;
            return emit(first);
        }
        while (true) {
            Candidate head = queue.peek();
            LocalDate nextDate = dates.peek();
            if (head != null && (nextDate == null || !head.instant().isAfter(earliestInstantOn(nextDate)))) {
                queue.poll();
                if (previous == null || head.instant().isAfter(previous)) {
                    return emit(head);
                }
            } else if (nextDate == null) {
                return null;
            } else {
                addCandidates(dates.next());
            }
        }
    }

    private static Instant earliestInstantOn(LocalDate date) {
        return Instant.ofEpochSecond(date.toEpochDay() * 86_400 - MAX_OFFSET_SECONDS);
    }

    private void addCandidates(LocalDate date) {
        for (LocalTime time : recurrence.times()) {
            LocalDateTime wallTime = date.atTime(time);
            if (!wallTime.isAfter(recurrence.start()) || lastWallTime != null && wallTime.isAfter(lastWallTime)) {
                continue;
            }
            DstResolver.resolve(wallTime, recurrence.rules(), recurrence.policy())
                    .map(resolved -> new Candidate(wallTime, resolved.instant(), resolved.note()))
                    .filter(candidate -> withinUntil(candidate)
                            && (previous == null || candidate.instant().isAfter(previous)))
                    .ifPresent(queue::add);
        }
    }

    private boolean withinUntil(Candidate candidate) {
        return (lastWallTime == null || !candidate.wallTime().isAfter(lastWallTime))
                && (lastInstant == null || !candidate.instant().isAfter(lastInstant));
    }

    private Occurrence emit(Candidate candidate) {
        number++;
        previous = candidate.instant();
        return new Occurrence(number, candidate.wallTime(), candidate.instant(),
                candidate.instant().atZone(recurrence.zone()), candidate.note());
    }
}
