package dev.tickler.reminder.rest;

import java.util.List;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import dev.tickler.reminder.ReminderPage;

/** A page of GET /v1/reminders or /v1/admin/reminders; next is the cursor to pass as "after", null on the last page. */
public record ReminderPageView(@Schema(required = true) List<ReminderView> items,
        @Schema(required = true, nullable = true, description = PageParameters.NEXT) String next) {

    public static ReminderPageView of(ReminderPage page) {
        return new ReminderPageView(page.items().stream().map(ReminderView::of).toList(),
                page.next() == null ? null : page.next().toCursor());
    }
}
