package dev.tickler.ledger;

import dev.tickler.db.WireNamed;

/** How a reminder reaches its user; each channel may have a queue of its own. */
public enum Channel implements WireNamed {
    EMAIL("email"),
    SMS("sms"),
    PUSH("push");

    private final String wireName;

    Channel(String wireName) {
        this.wireName = wireName;
    }

    @Override
    public String wireName() {
        return wireName;
    }
}
