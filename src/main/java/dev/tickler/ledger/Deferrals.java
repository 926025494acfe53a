package dev.tickler.ledger;

/**
 * SQL over {@code reminders} for reminders whose next send time is later than their fire_at: deferred by quiet hours,
 * a retry waiting out its backoff or the provider's Retry-After, a redrive, or a registration already past its fire_at.
 * The column keeps its first name, deferred_until, so that instances of the previous release keep working during an
 * upgrade. Until that time the reminder is late by design, not overdue, and a push that claims it sooner is early.
 */
public final class Deferrals {

    /** When a waiting reminder is due: its fire_at, or the later send time it was given. */
    public static final String DUE = "greatest(fire_at, deferred_until)";

    /** The reminder is due before $1 (fire_at passed, and any later send time too). */
    public static final String OVERDUE_BEFORE_$1 = "fire_at < $1 AND (deferred_until IS NULL OR deferred_until < $1)";

    private Deferrals() {
    }
}
