package dev.tickler.console;

import java.time.Instant;
import java.util.List;

import io.smallrye.mutiny.Uni;

import dev.tickler.reminder.ListPosition;
import dev.tickler.ledger.ReminderRow;

/**
 * Failed reminders across users, found by filter and redriven one, several or all matching at a time
 * ({@link OperatorDeadLetters}).
 */
public interface DeadLetters {

    /** Failed reminders that match, ordered by fire_at and id, after the given position. */
    Uni<Page> find(Filter filter, ListPosition after, int limit);

    Uni<Long> countMatching(Filter filter);

    /** How many of these reminders are failed now: what a redrive of them would change. */
    Uni<Long> countFailed(List<Long> ids);

    Uni<Outcome> redrive(List<Long> ids, String by);

    Uni<Outcome> redriveMatching(Filter filter, String by);

    /** The dead-letter filter; a blank field does not filter. {@code fireFrom} is inclusive, {@code fireTo} exclusive. */
    record Filter(String userId, String channel, String template, String errorContains, Instant fireFrom,
            Instant fireTo) {

        public static Filter of(String userId, String channel, String template, String errorContains,
                Instant fireFrom, Instant fireTo) {
            return new Filter(blankAsNull(userId), blankAsNull(channel), blankAsNull(template),
                    blankAsNull(errorContains), fireFrom, fireTo);
        }

        private static String blankAsNull(String value) {
            return value == null || value.isBlank() ? null : value.strip();
        }
    }

    record Page(List<ReminderRow> items, ListPosition next) {
    }

    /** {@code matched}: failed reminders found; {@code redriven}: those sent round again (others moved on meanwhile). */
    record Outcome(long matched, long redriven) {
    }
}
