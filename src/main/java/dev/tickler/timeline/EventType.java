package dev.tickler.timeline;

import dev.tickler.db.WireNamed;

/** The kinds of event a reminder's timeline holds (docs/contract.md#timeline). */
public enum EventType implements WireNamed {
    REGISTERED("registered"),
    PUBLISHED("published"),
    PUBLISH_FAILED("publish_failed"),
    RECEIVED("received"),
    IGNORED("ignored"),
    ATTEMPT("attempt"),
    SENT("sent"),
    FAILED("failed"),
    EXPIRED("expired"),
    SKIPPED("skipped"),
    RESCHEDULED("rescheduled"),
    CANCELLED("cancelled"),
    REDRIVEN("redriven"),
    DEFERRED("deferred"),
    RECONCILED("reconciled");

    private final String wireName;

    EventType(String wireName) {
        this.wireName = wireName;
    }

    @Override
    public String wireName() {
        return wireName;
    }
}
