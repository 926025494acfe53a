package dev.tickler.reminder;

import java.util.List;

/** One page of a user's reminders; next is null on the last page. */
public record ReminderPage(List<ReminderRow> items, ListPosition next) {
}
