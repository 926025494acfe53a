package dev.tickler.ledger;

/** The answer to a registration: the reminder, and whether this call created it or found it already there. */
public record Registration(ReminderRow reminder, boolean created) {
}
