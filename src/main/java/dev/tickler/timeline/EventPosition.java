package dev.tickler.timeline;

import java.time.Instant;
import java.util.Optional;

import dev.tickler.db.Cursor;
import dev.tickler.time.ReminderTiming;

/** Where a page of a timeline ended; travels to the caller as an opaque cursor, as list positions do. */
public record EventPosition(Instant at, long eventId) {

    static final EventPosition START = new EventPosition(Instant.EPOCH, 0);

    private static final String KIND = "events";

    public String toCursor() {
        return Cursor.encode(KIND, at, eventId);
    }

    /** Empty when the text is not a cursor this service made. */
    public static Optional<EventPosition> fromCursor(String cursor) {
        return Cursor.decode(KIND, cursor, 2).flatMap(parts -> {
            try {
                Instant at = Instant.parse(parts.get(0));
                long eventId = Long.parseLong(parts.get(1));
                return ReminderTiming.isSupported(at) && eventId > 0 ? Optional.of(new EventPosition(at, eventId))
                        : Optional.empty();
            } catch (RuntimeException notAPosition) {
                return Optional.empty();
            }
        });
    }
}
