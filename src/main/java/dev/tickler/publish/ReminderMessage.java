package dev.tickler.publish;

/** What a queue message carries: ids only; everything else is read from Postgres at delivery (SPEC §1). */
public record ReminderMessage(long reminderId, int version) {
}
