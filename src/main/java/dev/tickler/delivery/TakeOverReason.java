package dev.tickler.delivery;

import dev.tickler.db.WireNamed;

/** Why the reconciler takes a reminder over; the timeline's reconciled event names it. */
public enum TakeOverReason implements WireNamed {
    /** Handed off, and its message has not come back within the grace. */
    PUSH_OVERDUE("push_overdue"),
    /** Claimed, and the claim's lease ran out before the delivery settled. */
    LEASE_EXPIRED("lease_expired");

    private final String wireName;

    TakeOverReason(String wireName) {
        this.wireName = wireName;
    }

    @Override
    public String wireName() {
        return wireName;
    }
}
