package dev.tickler.schedule.rest;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Optional;

import dev.tickler.schedule.ScheduleService;

/** A page of GET /v1/schedules; next is the cursor to pass as "after", null on the last page. */
public record SchedulePageView(List<ScheduleView> items, String next) {

    private static final String PREFIX = "schedule|";

    public static SchedulePageView of(ScheduleService.Page page) {
        return new SchedulePageView(page.items().stream().map(ScheduleView::of).toList(),
                page.next() == null ? null : toCursor(page.next()));
    }

    static String toCursor(long afterId) {
        return Base64.getUrlEncoder().withoutPadding()
                .encodeToString((PREFIX + afterId).getBytes(StandardCharsets.UTF_8));
    }

    /** The id a cursor of this list continues after; empty when the text is not one. */
    static Optional<Long> fromCursor(String cursor) {
        try {
            String position = new String(Base64.getUrlDecoder().decode(cursor), StandardCharsets.UTF_8);
            if (!position.startsWith(PREFIX)) {
                return Optional.empty();
            }
            long id = Long.parseLong(position.substring(PREFIX.length()));
            return id < 1 ? Optional.empty() : Optional.of(id);
        } catch (RuntimeException notACursor) {
            return Optional.empty();
        }
    }
}
