package dev.tickler.schedule.rest;

import dev.tickler.schedule.recurrence.DstPolicy;

/** The dst object of a schedule's body: gap shift or skip, overlap first or last; either may be left out. */
public record DstFields(String gap, String overlap) {

    /** The gap choice, null when not given; only called once the fields are valid. */
    DstPolicy.Gap gapChoice() {
        return gap == null ? null : DstPolicy.Gap.fromWireName(gap).orElseThrow();
    }

    DstPolicy.Overlap overlapChoice() {
        return overlap == null ? null : DstPolicy.Overlap.fromWireName(overlap).orElseThrow();
    }
}
