package dev.tickler.schedule;

import dev.tickler.db.WireNamed;

/** A schedule's lifecycle: active, paused (creates nothing until resumed) or ended (for good). */
public enum ScheduleState implements WireNamed {
    ACTIVE("active"),
    PAUSED("paused"),
    ENDED("ended");

    private final String wireName;

    ScheduleState(String wireName) {
        this.wireName = wireName;
    }

    @Override
    public String wireName() {
        return wireName;
    }
}
