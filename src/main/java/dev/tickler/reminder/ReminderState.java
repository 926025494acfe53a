package dev.tickler.reminder;

/** The lifecycle of SPEC §2. */
public enum ReminderState implements WireNamed {
    PENDING("pending"),
    HANDED_OFF("handed_off"),
    DELIVERING("delivering"),
    SENT("sent"),
    FAILED("failed"),
    CANCELLED("cancelled"),
    EXPIRED("expired");

    private final String wireName;

    ReminderState(String wireName) {
        this.wireName = wireName;
    }

    @Override
    public String wireName() {
        return wireName;
    }
}
