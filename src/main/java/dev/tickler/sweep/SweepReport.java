package dev.tickler.sweep;

/** What one sweep did (SPEC §6, §17). */
public record SweepReport(long handedOff, long failedPublish, long reconciled, long expired, long deleted,
        long durationMs) {
}
