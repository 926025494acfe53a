package dev.tickler.reminder;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import java.util.Optional;
import dev.tickler.ledger.ReminderRow;
import dev.tickler.time.ReminderTiming;

/** Where a page of the per-user list ended; travels to the caller as an opaque cursor. */
public record ListPosition(Instant fireAt, long id) {

    public static ListPosition of(ReminderRow reminder) {
        return new ListPosition(reminder.fireAt(), reminder.id());
    }

    public String toCursor() {
        String position = fireAt + "|" + id;
        return Base64.getUrlEncoder().withoutPadding().encodeToString(position.getBytes(StandardCharsets.UTF_8));
    }

    /** Empty when the text is not a cursor this service made. */
    public static Optional<ListPosition> fromCursor(String cursor) {
        try {
            String position = new String(Base64.getUrlDecoder().decode(cursor), StandardCharsets.UTF_8);
            int bar = position.indexOf('|');
            if (bar < 0) {
                return Optional.empty();
            }
            Instant fireAt = Instant.parse(position.substring(0, bar));
            long id = Long.parseLong(position.substring(bar + 1));
            if (!ReminderTiming.isSupported(fireAt) || id < 1) {
                return Optional.empty();
            }
            return Optional.of(new ListPosition(fireAt, id));
        } catch (RuntimeException notACursor) {
            return Optional.empty();
        }
    }
}
