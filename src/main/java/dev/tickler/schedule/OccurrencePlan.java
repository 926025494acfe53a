package dev.tickler.schedule;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;

import dev.tickler.schedule.ScheduleRow.Position;
import dev.tickler.schedule.recurrence.Occurrence;
import dev.tickler.schedule.recurrence.Recurrence;

/**
 * What one top-up of a schedule does, worked out without the database: which occurrences become reminders to send,
 * which become skipped reminders, how many are only counted, and where the cursor and anchor move. Pure, so the
 * rules are in one place and the service only writes the outcome.
 *
 * <p>An occurrence is missed when its time passed (before the current second) before the schedule created it; catch-up
 * decides about those. Then future occurrences are created until the schedule has two unfinished ones.
 */
public final class OccurrencePlan {

    /** How many unfinished occurrences a schedule keeps as reminders. */
    public static final int KEPT_AHEAD = 2;
    /** The most recent skipped occurrences of one catch-up that become reminders; older ones are only counted. */
    public static final int RECORDED_SKIPS = 100;
    /** Positions one top-up examines at most; a longer catch-up goes on in the next pass. */
    static final int MAX_SCANNED = 20_000;
    /** Late reminders one pass of catch-up "all" creates at most; the next pass creates more. */
    static final int MAX_LATE = 1_000;

    /** An occurrence with the number the schedule gives it. */
    public record Numbered(int number, Occurrence occurrence) {
    }

    /**
     * The outcome. {@code complete} is false when the pass stopped early and another must follow; {@code exhausted}
     * when the rule has no occurrence after the new cursor.
     */
    public record Plan(List<Numbered> toSend, List<Numbered> toSkip, long onlyCounted, Position cursor,
            Position anchor, int lastNumber, boolean complete, boolean exhausted) {

        public long skipped() {
            return onlyCounted + toSkip.size();
        }

        public boolean changesNothing(ScheduleRow schedule) {
            return toSend.isEmpty() && toSkip.isEmpty() && onlyCounted == 0 && cursor.equals(schedule.cursor())
                    && anchor.equals(schedule.anchor());
        }
    }

    private OccurrencePlan() {
    }

    /** The current second: an occurrence before it is missed, one at or after it is due now or later. */
    public static Instant dueFrom(Instant now) {
        return now.truncatedTo(ChronoUnit.SECONDS);
    }

    /** The top-up of an active schedule that has {@code unfinished} occurrences not yet ended. */
    public static Plan topUp(ScheduleRow schedule, int unfinished, Instant now) {
        Instant due = dueFrom(now);
        Recurrence recurrence = schedule.definition().recurrence();
        Position anchor = advancedAnchor(recurrence, schedule, due);
        Peeking occurrences = new Peeking(after(recurrence, schedule.cursor()));
        CatchUp catchUp = schedule.catchUp();

        List<Occurrence> late = new ArrayList<>();
        Deque<Occurrence> recent = new ArrayDeque<>();
        int recentCapacity = catchUp == CatchUp.LATEST ? RECORDED_SKIPS + 1 : RECORDED_SKIPS;
        long onlyCounted = 0;
        int scanned = 0;
        Occurrence lastMissed = null;
        Occurrence lastCounted = null;
        boolean complete = true;
        while (occurrences.hasNext() && occurrences.peek().instant().isBefore(due)) {
            if (scanned == MAX_SCANNED || late.size() == MAX_LATE) {
                complete = false;
                break;
            }
            Occurrence missed = occurrences.next();
            scanned++;
            lastMissed = missed;
            if (catchUp == CatchUp.ALL) {
                late.add(missed);
            } else {
                recent.addLast(missed);
                if (recent.size() > recentCapacity) {
                    lastCounted = recent.removeFirst();
                    onlyCounted++;
                }
            }
        }
        if (!complete && lastCounted != null) {
            // the most recent missed ones are left for the next pass, so only the last pass records skips: the 100
            // most recent of the whole catch-up, however many passes it takes
            recent.clear();
            lastMissed = lastCounted;
        }
        if (catchUp == CatchUp.LATEST && !recent.isEmpty()) {
            late.add(recent.removeLast());
        }
        Position cursor = schedule.cursor();
        if (lastMissed != null) {
            cursor = positionOf(lastMissed);
            anchor = cursor;
        }

        List<Numbered> toSend = new ArrayList<>();
        late.forEach(occurrence -> toSend.add(numbered(schedule, occurrence)));
        List<Numbered> toSkip = recent.stream().map(occurrence -> numbered(schedule, occurrence)).toList();
        if (complete) {
            int kept = unfinished + toSend.size();
            while (kept < KEPT_AHEAD && occurrences.hasNext()) {
                Occurrence next = occurrences.next();
                toSend.add(numbered(schedule, next));
                cursor = positionOf(next);
                kept++;
            }
        }
        return new Plan(toSend, toSkip, onlyCounted, cursor, anchor, schedule.numberOf(cursor.position()), complete,
                complete && !occurrences.hasNext());
    }

    /**
     * Where the expansion stands once every occurrence not yet due is given back (a pause, or a change that replaces
     * them): the last position dealt with whose time has passed. Occurrences after it are created again, with new
     * numbers, when the schedule next runs.
     */
    public static Position rewound(ScheduleRow schedule, Instant now) {
        return advancedAnchor(schedule.definition().recurrence(), schedule, dueFrom(now));
    }

    /**
     * The position of a new rule from which it runs: its last occurrence before now (occurrences before a change are
     * neither missed nor created), or empty when more than {@link #MAX_SCANNED} lie between its start and now.
     */
    public static Optional<Position> lastBefore(Recurrence recurrence, Instant now) {
        Instant due = dueFrom(now);
        Position last = Position.BEFORE_FIRST;
        int scanned = 0;
        for (Occurrence occurrence : recurrence) {
            if (!occurrence.instant().isBefore(due)) {
                return Optional.of(last);
            }
            if (++scanned > MAX_SCANNED) {
                return Optional.empty();
            }
            last = positionOf(occurrence);
        }
        return Optional.of(last);
    }

    /**
     * The next {@code count} occurrences at or after now, numbered as the schedule numbers them; the preview. Empty
     * when more than {@link #MAX_SCANNED} occurrences lie between the schedule's anchor and now (a schedule paused for
     * long under a frequent rule), which no request expands.
     */
    public static Optional<List<Numbered>> upcoming(ScheduleRow schedule, Instant now, int count) {
        Instant due = dueFrom(now);
        Iterator<Occurrence> occurrences = after(schedule.definition().recurrence(), schedule.anchor());
        List<Numbered> upcoming = new ArrayList<>(count);
        int passed = 0;
        while (upcoming.size() < count && occurrences.hasNext()) {
            Occurrence occurrence = occurrences.next();
            if (!occurrence.instant().isBefore(due)) {
                upcoming.add(numbered(schedule, occurrence));
            } else if (++passed > MAX_SCANNED) {
                return Optional.empty();
            }
        }
        return Optional.of(upcoming);
    }

    /** The last position from the anchor up to the cursor whose time has passed: the anchor moved on. */
    private static Position advancedAnchor(Recurrence recurrence, ScheduleRow schedule, Instant due) {
        Position anchor = schedule.anchor();
        Iterator<Occurrence> occurrences = after(recurrence, anchor);
        while (occurrences.hasNext()) {
            Occurrence occurrence = occurrences.next();
            if (occurrence.number() > schedule.cursor().position() || !occurrence.instant().isBefore(due)) {
                break;
            }
            anchor = positionOf(occurrence);
        }
        return anchor;
    }

    private static Iterator<Occurrence> after(Recurrence recurrence, Position position) {
        return position.position() == 0 ? recurrence.iterator()
                : recurrence.after(position.position(), position.wallTime()).iterator();
    }

    private static Position positionOf(Occurrence occurrence) {
        return new Position(occurrence.number(), occurrence.wallTime());
    }

    private static Numbered numbered(ScheduleRow schedule, Occurrence occurrence) {
        return new Numbered(schedule.numberOf(occurrence.number()), occurrence);
    }

    /** An iterator that can look at its next item without taking it. */
    private static final class Peeking implements Iterator<Occurrence> {

        private final Iterator<Occurrence> source;
        private Occurrence peeked;

        Peeking(Iterator<Occurrence> source) {
            this.source = source;
        }

        Occurrence peek() {
            if (peeked == null) {
                peeked = source.next();
            }
            return peeked;
        }

        @Override
        public boolean hasNext() {
            return peeked != null || source.hasNext();
        }

        @Override
        public Occurrence next() {
            if (peeked == null) {
                return source.next();
            }
            Occurrence next = peeked;
            peeked = null;
            return next;
        }
    }
}
