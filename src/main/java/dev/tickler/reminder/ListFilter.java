package dev.tickler.reminder;

import java.util.Set;

import dev.tickler.ledger.ReminderState;

/**
 * What GET /v1/reminders narrows a user's reminders to (docs/api.md, "Lists"): any of {@code states} (every state when
 * empty), and the template and tag when given.
 */
public record ListFilter(Set<ReminderState> states, String template, String tag) {

    /** Every reminder of the user. */
    public static final ListFilter NONE = new ListFilter(Set.of(), null, null);
}
