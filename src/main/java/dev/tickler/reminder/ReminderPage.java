package dev.tickler.reminder;

import java.util.List;
import dev.tickler.ledger.ReminderRow;

/** One page of reminders in (fire_at, id) order; next is null on the last page. */
public record ReminderPage(List<ReminderRow> items, ListPosition next) {

    /** The first {@code limit} rows as a page; one row more (read to learn whether there is one) means a next page. */
    public static ReminderPage of(List<ReminderRow> rows, int limit) {
        return rows.size() <= limit
                ? new ReminderPage(rows, null)
                : new ReminderPage(rows.subList(0, limit), ListPosition.of(rows.get(limit - 1)));
    }
}
