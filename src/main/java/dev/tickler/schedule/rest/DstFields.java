package dev.tickler.schedule.rest;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import dev.tickler.schedule.recurrence.DstPolicy;

/** The dst object of a schedule's body: gap shift or skip, overlap first or last; either may be left out. */
public record DstFields(
        @Schema(enumeration = {"shift", "skip"}, description = "What an occurrence in a spring-forward gap does;"
                + " shift when left out") String gap,
        @Schema(enumeration = {"first", "last"}, description = "Which of an autumn overlap's two times an occurrence"
                + " takes; first when left out") String overlap) {

    /** The gap choice, null when not given; only called once the fields are valid. */
    DstPolicy.Gap gapChoice() {
        return gap == null ? null : DstPolicy.Gap.fromWireName(gap).orElseThrow();
    }

    DstPolicy.Overlap overlapChoice() {
        return overlap == null ? null : DstPolicy.Overlap.fromWireName(overlap).orElseThrow();
    }
}
