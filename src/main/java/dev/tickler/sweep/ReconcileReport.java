package dev.tickler.sweep;

/** What one reconcile pass did (docs/contract.md#sweep-and-reconcile). */
public record ReconcileReport(long reconciled, long expired, long durationMs) {
}
