package dev.tickler.ledger;

import java.util.List;

/**
 * The answer to a registration: the reminder, whether this call created it or found it registered before, and for
 * one found, the fields of the registration's body that it holds otherwise (none: the same body).
 */
public record Registration(ReminderRow reminder, boolean created, List<String> differing) {

    public Registration(ReminderRow reminder, boolean created) {
        this(reminder, created, List.of());
    }

    public boolean sameBody() {
        return differing.isEmpty();
    }
}
