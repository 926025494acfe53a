package dev.tickler.quiethours;

/**
 * SQL over {@code reminders} for reminders deferred by quiet hours: one is due at the end of the window it was
 * deferred to, not at its fire_at, and until then it is late by its user's choice, not overdue.
 */
public final class Deferrals {

    /** When a waiting reminder is due: its fire_at, or the end of the quiet hours it was deferred to. */
    public static final String DUE = "greatest(fire_at, deferred_until)";

    /** The reminder is due before $1 (fire_at passed, and any deferral too). */
    public static final String OVERDUE_BEFORE_$1 = "fire_at < $1 AND (deferred_until IS NULL OR deferred_until < $1)";

    private Deferrals() {
    }
}
