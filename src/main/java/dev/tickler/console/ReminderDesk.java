package dev.tickler.console;

import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;

import io.smallrye.mutiny.Uni;

import dev.tickler.ledger.ReminderRow;
import dev.tickler.problem.ProblemException;
import dev.tickler.reminder.ListFilter;
import dev.tickler.reminder.ListPosition;
import dev.tickler.reminder.ReminderPage;
import dev.tickler.reminder.ReminderService;
import dev.tickler.security.Caller;
import dev.tickler.timeline.EventPosition;
import dev.tickler.timeline.Timeline;
import dev.tickler.timeline.TimelinePage;

@ApplicationScoped
public class ReminderDesk {

    private final ReminderService reminders;
    private final Timeline timeline;

    public ReminderDesk(ReminderService reminders, Timeline timeline) {
        this.reminders = reminders;
        this.timeline = timeline;
    }

    /** The console reads as an operator: every tenant's reminders. */
    private static final Caller READER = Caller.operator("console");

    public Uni<Optional<ReminderRow>> find(long id) {
        return reminders.get(id, READER).map(Optional::of)
                .onFailure(ReminderDesk::isNotFound).recoverWithItem(Optional.empty());
    }

    public Uni<ReminderPage> forUser(String userId, ListPosition after, int limit) {
        return reminders.list(READER, userId, ListFilter.NONE, after, limit);
    }

    public Uni<Optional<TimelinePage>> timeline(long id, EventPosition after, int limit) {
        return timeline.page(id, null, after, limit);
    }

    public Uni<ReminderRow> redrive(long id, String by) {
        return reminders.redrive(id, Caller.operator(by));
    }

    private static boolean isNotFound(Throwable failure) {
        return failure instanceof ProblemException problem && problem.problem().status() == 404;
    }
}
