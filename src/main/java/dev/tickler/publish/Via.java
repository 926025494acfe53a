package dev.tickler.publish;

/** Why a reminder is put on the queue; the timeline's {@code published} event names it. */
public enum Via {
    API("api"),
    SWEEP("sweep"),
    RETRY("retry"),
    RECONCILE("reconcile"),
    REDRIVE("redrive"),
    RELEASE("release"),
    QUIET_HOURS("quiet_hours");

    private final String wireName;

    Via(String wireName) {
        this.wireName = wireName;
    }

    public String wireName() {
        return wireName;
    }
}
