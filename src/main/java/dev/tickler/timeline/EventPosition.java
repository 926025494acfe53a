package dev.tickler.timeline;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import java.util.Optional;

import dev.tickler.time.ReminderTiming;

/** Where a page of a timeline ended; travels to the caller as an opaque cursor, as list positions do. */
public record EventPosition(Instant at, long eventId) {

    static final EventPosition START = new EventPosition(Instant.EPOCH, 0);

    private static final String PREFIX = "event|";

    public String toCursor() {
        return Base64.getUrlEncoder().withoutPadding()
                .encodeToString((PREFIX + at + "|" + eventId).getBytes(StandardCharsets.UTF_8));
    }

    /** Empty when the text is not a cursor this service made. */
    public static Optional<EventPosition> fromCursor(String cursor) {
        try {
            String position = new String(Base64.getUrlDecoder().decode(cursor), StandardCharsets.UTF_8);
            int bar = position.lastIndexOf('|');
            if (!position.startsWith(PREFIX) || bar <= PREFIX.length()) {
                return Optional.empty();
            }
            Instant at = Instant.parse(position.substring(PREFIX.length(), bar));
            long eventId = Long.parseLong(position.substring(bar + 1));
            if (!ReminderTiming.isSupported(at) || eventId < 1) {
                return Optional.empty();
            }
            return Optional.of(new EventPosition(at, eventId));
        } catch (RuntimeException notACursor) {
            return Optional.empty();
        }
    }
}
