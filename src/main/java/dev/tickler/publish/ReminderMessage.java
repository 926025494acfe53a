package dev.tickler.publish;

/**
 * What a queue message carries: ids only; everything else is read from Postgres at delivery
 * (docs/contract.md#postgres-is-the-source-of-truth).
 */
public record ReminderMessage(long reminderId, int version) {
}
