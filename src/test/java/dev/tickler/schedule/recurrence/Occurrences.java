package dev.tickler.schedule.recurrence;

import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.List;

import dev.tickler.schedule.recurrence.DstPolicy.Gap;
import dev.tickler.schedule.recurrence.DstPolicy.Overlap;

/** Shorthands for tests: build a recurrence from text and render occurrences as one comparable line each. */
final class Occurrences {

    static final List<DstPolicy> ALL_POLICIES = List.of(
            new DstPolicy(Gap.SHIFT, Overlap.FIRST), new DstPolicy(Gap.SHIFT, Overlap.LAST),
            new DstPolicy(Gap.SKIP, Overlap.FIRST), new DstPolicy(Gap.SKIP, Overlap.LAST));

    private Occurrences() {
    }

    static Recurrence recurrence(String rrule, String start, String zone, DstPolicy policy) {
        return Recurrence.of(LocalDateTime.parse(start), ZoneId.of(zone), RecurrenceRule.parse(rrule), policy);
    }

    /** The first {@code limit} occurrences, each as "number wall-time instant local-time note". */
    static List<String> lines(Recurrence recurrence, int limit) {
        return recurrence.stream().limit(limit).map(Occurrences::line).toList();
    }

    static List<String> wallTimes(Recurrence recurrence, int limit) {
        return recurrence.stream().limit(limit).map(occurrence -> occurrence.wallTime().toString()).toList();
    }

    static String line(Occurrence occurrence) {
        return occurrence.number() + " " + occurrence.wallTime() + " " + occurrence.instant() + " "
                + occurrence.local().toOffsetDateTime() + " "
                + (occurrence.note() == null ? "-" : occurrence.note().wireName());
    }
}
