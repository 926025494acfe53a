package dev.tickler.schedule.recurrence;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.zone.ZoneOffsetTransition;
import java.time.zone.ZoneRules;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/** Turns a wall time in a zone into an instant under a {@link DstPolicy}. */
public final class DstResolver {

    private DstResolver() {
    }

    /** The instant a wall time stands for, with its note; empty when it falls in a gap and the policy skips. */
    public record Resolved(Instant instant, DstNote note) {

        public Resolved {
            Objects.requireNonNull(instant, "instant");
        }
    }

    /**
     * Resolves {@code wallTime} in {@code zone}: a single valid offset gives that instant; in a gap, {@code shift}
     * moves the wall time forward by the gap's length (as {@link java.time.ZonedDateTime#ofLocal} does) and
     * {@code skip} gives nothing; in an overlap, {@code first} takes the earlier instant and {@code last} the later.
     */
    public static Optional<Resolved> resolve(LocalDateTime wallTime, ZoneId zone, DstPolicy policy) {
        return resolve(wallTime, zone.getRules(), policy);
    }

    static Optional<Resolved> resolve(LocalDateTime wallTime, ZoneRules rules, DstPolicy policy) {
        List<ZoneOffset> offsets = rules.getValidOffsets(wallTime);
        if (offsets.size() == 1) {
            return Optional.of(new Resolved(wallTime.toInstant(offsets.get(0)), null));
        }
        ZoneOffsetTransition transition = rules.getTransition(wallTime);
        if (offsets.isEmpty()) {
            if (policy.gap() == DstPolicy.Gap.SKIP) {
                return Optional.empty();
            }
            // the wall time read with the offset before the gap is the instant of "wall time + gap length" after it
            return Optional.of(new Resolved(wallTime.toInstant(transition.getOffsetBefore()), DstNote.GAP_SHIFTED));
        }
        return Optional.of(policy.overlap() == DstPolicy.Overlap.FIRST
                ? new Resolved(wallTime.toInstant(transition.getOffsetBefore()), DstNote.OVERLAP_EARLIER)
                : new Resolved(wallTime.toInstant(transition.getOffsetAfter()), DstNote.OVERLAP_LATER));
    }
}
