package dev.tickler.reminder;

/**
 * What a cancel by filter did (docs/contract.md#keyed-reminders-and-cancel-by-filter): how many reminders it cancelled,
 * how many that match are delivering (a send in flight, whose outcome decides), and whether matching reminders are
 * left because the call reached its limit.
 */
public record Cancellation(long cancelled, long delivering, boolean more) {
}
