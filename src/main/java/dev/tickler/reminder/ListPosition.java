package dev.tickler.reminder;

import java.time.Instant;
import java.util.Optional;

import dev.tickler.db.Cursor;
import dev.tickler.ledger.ReminderRow;
import dev.tickler.time.ReminderTiming;

/** Where a page of a reminder list ended, in (fire_at, id) order; travels to the caller as an opaque cursor. */
public record ListPosition(Instant fireAt, long id) {

    private static final String KIND = "reminders";

    public static ListPosition of(ReminderRow reminder) {
        return new ListPosition(reminder.fireAt(), reminder.id());
    }

    public String toCursor() {
        return Cursor.encode(KIND, fireAt, id);
    }

    /** Empty when the text is not a cursor this service made. */
    public static Optional<ListPosition> fromCursor(String cursor) {
        return Cursor.decode(KIND, cursor, 2).flatMap(parts -> {
            try {
                Instant fireAt = Instant.parse(parts.get(0));
                long id = Long.parseLong(parts.get(1));
                return ReminderTiming.isSupported(fireAt) && id > 0 ? Optional.of(new ListPosition(fireAt, id))
                        : Optional.empty();
            } catch (RuntimeException notAPosition) {
                return Optional.empty();
            }
        });
    }
}
