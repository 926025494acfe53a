package dev.tickler.sweep;

/**
 * What one sweep did (docs/contract.md#sweep-and-reconcile, #retention); schedulesToppedUp counts the active schedules the backstop found short of
 * occurrences and gave new ones; callbacksDeleted the callback events past tickler.callbacks.retention.
 */
public record SweepReport(long handedOff, long failedPublish, long reconciled, long expired, long deleted,
        long schedulesToppedUp, long callbacksDeleted, long durationMs) {
}
