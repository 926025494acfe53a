package dev.tickler.schedule.recurrence;

import java.util.Arrays;
import java.util.Objects;
import java.util.Optional;

/** A schedule's choice for wall times that do not exist (gap) or exist twice (overlap) in its zone. */
public record DstPolicy(Gap gap, Overlap overlap) {

    /** shift / first. */
    public static final DstPolicy DEFAULT = new DstPolicy(Gap.SHIFT, Overlap.FIRST);

    public DstPolicy {
        Objects.requireNonNull(gap, "gap");
        Objects.requireNonNull(overlap, "overlap");
    }

    /** A wall time in a spring-forward gap: moved forward by the gap's length, or no occurrence. */
    public enum Gap {
        SHIFT("shift"), SKIP("skip");

        private final String wireName;

        Gap(String wireName) {
            this.wireName = wireName;
        }

        public String wireName() {
            return wireName;
        }

        /** The value with this exact wire name, if any. */
        public static Optional<Gap> fromWireName(String name) {
            return Arrays.stream(values()).filter(value -> value.wireName.equals(name)).findFirst();
        }
    }

    /** A wall time in a fall-back overlap: the earlier or the later of its two instants. */
    public enum Overlap {
        FIRST("first"), LAST("last");

        private final String wireName;

        Overlap(String wireName) {
            this.wireName = wireName;
        }

        public String wireName() {
            return wireName;
        }

        /** The value with this exact wire name, if any. */
        public static Optional<Overlap> fromWireName(String name) {
            return Arrays.stream(values()).filter(value -> value.wireName.equals(name)).findFirst();
        }
    }
}
