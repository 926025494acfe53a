package dev.tickler.schedule;

import dev.tickler.db.WireNamed;

/**
 * What becomes of occurrences whose time passed before the schedule could create them (a start in the past, a
 * pause, an outage): all are sent late, only the most recent is, or none is; the others end skipped.
 */
public enum CatchUp implements WireNamed {
    ALL("all"),
    LATEST("latest"),
    NONE("none");

    private final String wireName;

    CatchUp(String wireName) {
        this.wireName = wireName;
    }

    @Override
    public String wireName() {
        return wireName;
    }
}
