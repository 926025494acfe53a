package dev.tickler.operator;

import java.time.Instant;

import dev.tickler.ledger.Channel;
import dev.tickler.ledger.ReminderState;

/**
 * Which reminders an operator call is about (docs/contract.md#operator-api), across all users; every field is optional
 * and those given must all hold. {@code errorContains} is a case-insensitive plain substring of {@code last_error};
 * {@code fireFrom} is inclusive and {@code fireTo} exclusive; {@code tenant} narrows it to one tenant's.
 */
public record ReminderFilter(ReminderState state, Channel channel, String template, String userId,
        String errorContains, Instant fireFrom, Instant fireTo, String tenant) {

    public static final ReminderFilter ALL = new ReminderFilter(null, null, null, null, null, null, null, null);

    public boolean isEmpty() {
        return equals(ALL);
    }
}
