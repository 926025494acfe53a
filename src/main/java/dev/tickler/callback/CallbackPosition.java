package dev.tickler.callback;

import java.util.Optional;

import dev.tickler.db.Cursor;

/** Where a page of GET /v1/callbacks ended, in id order; travels to the caller as an opaque cursor. */
public record CallbackPosition(long id) {

    static final CallbackPosition START = new CallbackPosition(0);

    private static final String KIND = "callbacks";

    public String toCursor() {
        return Cursor.encode(KIND, id);
    }

    /** Empty when the text is not a cursor of this list. */
    public static Optional<CallbackPosition> fromCursor(String cursor) {
        return Cursor.decode(KIND, cursor, 1).flatMap(parts -> {
            try {
                long id = Long.parseLong(parts.get(0));
                return id > 0 ? Optional.of(new CallbackPosition(id)) : Optional.empty();
            } catch (NumberFormatException notAPosition) {
                return Optional.empty();
            }
        });
    }
}
