package dev.tickler.reminder;

/** The lifecycle of SPEC §2. */
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
}
