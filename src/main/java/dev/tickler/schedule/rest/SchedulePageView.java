package dev.tickler.schedule.rest;

import java.util.List;
import java.util.Optional;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import dev.tickler.db.Cursor;
import dev.tickler.reminder.rest.PageParameters;
import dev.tickler.schedule.ScheduleService;

/** A page of GET /v1/schedules; next is the cursor to pass as "after", null on the last page. */
public record SchedulePageView(@Schema(required = true) List<ScheduleView> items,
        @Schema(required = true, nullable = true, description = PageParameters.NEXT) String next) {

    private static final String KIND = "schedules";

    public static SchedulePageView of(ScheduleService.Page page) {
        return new SchedulePageView(page.items().stream().map(ScheduleView::of).toList(),
                page.next() == null ? null : toCursor(page.next()));
    }

    static String toCursor(long afterId) {
        return Cursor.encode(KIND, afterId);
    }

    /** The id a cursor of this list continues after; empty when the text is not one. */
    static Optional<Long> fromCursor(String cursor) {
        return Cursor.decode(KIND, cursor, 1).flatMap(parts -> {
            try {
                long id = Long.parseLong(parts.get(0));
                return id < 1 ? Optional.empty() : Optional.of(id);
            } catch (NumberFormatException notAnId) {
                return Optional.empty();
            }
        });
    }
}
