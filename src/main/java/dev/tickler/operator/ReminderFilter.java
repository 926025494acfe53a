package dev.tickler.operator;

import java.time.Instant;
import java.util.Set;

import dev.tickler.ledger.Channel;
import dev.tickler.ledger.ReminderState;

/**
 * Which reminders an operator call is about (docs/contract.md#operator-api), across all users; every field is optional
 * and those given must all hold. A reminder in any of {@code states} matches (in any state when it is empty);
 * {@code errorContains} is a case-insensitive plain substring of {@code last_error}; {@code fireFrom} is inclusive and
 * {@code fireTo} exclusive; {@code tenant} narrows it to one tenant's; {@code key} is a whole key and
 * {@code keyPrefix} the start of one, {@code tag} one of the reminder's tags.
 */
public record ReminderFilter(Set<ReminderState> states, Channel channel, String template, String userId,
        String errorContains, Instant fireFrom, Instant fireTo, String tenant, String key, String keyPrefix,
        String tag) {

    public static final ReminderFilter ALL = new ReminderFilter(Set.of(), null, null, null, null, null, null, null,
            null, null, null);

    public boolean isEmpty() {
        return equals(ALL);
    }
}
