package dev.tickler.delivery;

import dev.tickler.db.WireNamed;

/** How a queue message reached this instance; the timeline's received event names it. */
public enum Transport implements WireNamed {
    PUSH("push"),
    POLL("poll");

    private final String wireName;

    Transport(String wireName) {
        this.wireName = wireName;
    }

    @Override
    public String wireName() {
        return wireName;
    }
}
