package dev.tickler.console;

import java.util.Optional;

import io.smallrye.mutiny.Uni;

import dev.tickler.reminder.ListPosition;
import dev.tickler.reminder.ReminderPage;
import dev.tickler.ledger.ReminderRow;
import dev.tickler.timeline.EventPosition;
import dev.tickler.timeline.TimelinePage;

/** What the console reads and changes about single reminders: the calls the /v1 API makes too. */
public interface ReminderDesk {

    Uni<Optional<ReminderRow>> find(long id);

    Uni<ReminderPage> forUser(String userId, ListPosition after, int limit);

    /** Empty when there is no such reminder. */
    Uni<Optional<TimelinePage>> timeline(long id, EventPosition after, int limit);

    /** Fails with a conflict when the reminder is not failed (any more). */
    Uni<ReminderRow> redrive(long id, String by);
}
