package dev.tickler.ledger;

import java.util.Arrays;
import java.util.stream.Collectors;
import dev.tickler.db.WireNamed;

/** A reminder's lifecycle (docs/contract.md#states). */
public enum ReminderState implements WireNamed {
    PENDING("pending"),
    HANDED_OFF("handed_off"),
    DELIVERING("delivering"),
    SENT("sent"),
    FAILED("failed"),
    CANCELLED("cancelled"),
    EXPIRED("expired"),
    /** A send that a policy (a schedule's catch-up, quiet hours) decided not to make; terminal. */
    SKIPPED("skipped");

    private final String wireName;

    ReminderState(String wireName) {
        this.wireName = wireName;
    }

    @Override
    public String wireName() {
        return wireName;
    }

    /** The state as SQL names it, e.g. {@code 'handed_off'}: the state column holds wire names. */
    public String sql() {
        return "'" + wireName + "'";
    }

    /** States as an SQL list for {@code IN}, e.g. {@code ('pending', 'handed_off')}. */
    public static String sqlList(ReminderState... states) {
        return Arrays.stream(states).map(ReminderState::sql).collect(Collectors.joining(", ", "(", ")"));
    }
}
