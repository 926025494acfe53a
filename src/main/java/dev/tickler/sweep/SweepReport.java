package dev.tickler.sweep;

/** What one sweep did (docs/contract.md#sweep-and-reconcile, #retention). */
public record SweepReport(long handedOff, long failedPublish, long reconciled, long expired, long deleted,
        long durationMs) {
}
