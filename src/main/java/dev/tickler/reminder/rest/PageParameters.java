package dev.tickler.reminder.rest;

import java.util.List;
import java.util.Optional;
import java.util.function.Function;

import dev.tickler.problem.FieldError;
import dev.tickler.reminder.ListPosition;

/**
 * The paging parameters every reminder list reads (docs/contract.md#registration-api): limit 1–500, default 50, and the
 * cursor of next.
 */
public final class PageParameters {

    public static final int DEFAULT_LIMIT = 50;
    public static final int MAX_LIMIT = 500;

    /** A page's next, as the API document describes it. */
    public static final String NEXT = "The cursor to pass as after for the following page; null on the last page";

    private PageParameters() {
    }

    /** The page size; null, with the error added, when the text is not one. */
    public static Integer limit(String limit, List<FieldError> errors) {
        Integer value = parseLimit(limit);
        if (value == null) {
            errors.add(new FieldError("limit", "must be a whole number from 1 to " + MAX_LIMIT));
        }
        return value;
    }

    /** Where the page starts; null for the first page, or, with the error added, when the text is not a cursor. */
    public static ListPosition after(String after, List<FieldError> errors) {
        return after(after, ListPosition::fromCursor, errors);
    }

    /** The same for another kind of list, whose cursors the given function reads. */
    public static <P> P after(String after, Function<String, Optional<P>> fromCursor, List<FieldError> errors) {
        P position = after == null ? null : fromCursor.apply(after).orElse(null);
        if (after != null && position == null) {
            errors.add(new FieldError("after", "must be a cursor from a previous page's next"));
        }
        return position;
    }

    private static Integer parseLimit(String limit) {
        return count(limit, DEFAULT_LIMIT, MAX_LIMIT);
    }

    /** A whole number from 1 to {@code max}, {@code absent} when the text is null; null when it is not one. */
    public static Integer count(String text, int absent, int max) {
        if (text == null) {
            return absent;
        }
        try {
            int value = Integer.parseInt(text);
            return value >= 1 && value <= max ? value : null;
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
