package dev.tickler.operator;

import jakarta.enterprise.context.ApplicationScoped;

import io.smallrye.mutiny.Uni;

import dev.tickler.reminder.ListPosition;
import dev.tickler.reminder.ReminderPage;

/** The operator's reminder calls (SPEC §13): search across all users. */
@ApplicationScoped
public class OperatorReminderService {

    private final OperatorReminderRepository repository;

    public OperatorReminderService(OperatorReminderRepository repository) {
        this.repository = repository;
    }

    public Uni<ReminderPage> search(ReminderFilter filter, ListPosition after, int limit) {
        return repository.search(filter, after, limit + 1).map(rows -> ReminderPage.of(rows, limit));
    }
}
