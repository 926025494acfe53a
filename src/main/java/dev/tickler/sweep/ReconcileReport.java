package dev.tickler.sweep;

/** What one reconcile pass did (SPEC §6). */
public record ReconcileReport(long reconciled, long expired, long durationMs) {
}
