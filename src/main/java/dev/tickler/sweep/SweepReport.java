package dev.tickler.sweep;

/** What one sweep did (SPEC §6). */
public record SweepReport(long handedOff, long failedPublish, long reconciled, long expired, long durationMs) {
}
