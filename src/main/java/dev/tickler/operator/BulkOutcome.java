package dev.tickler.operator;

/**
 * What a bulk call did: {@code matched} reminders the filter selected in a state the operation applies to, counted
 * as the call starts (what a dry run answers), and {@code changed} the ones this call changed.
 */
public record BulkOutcome(long matched, long changed) {
}
