package dev.tickler.reminder;

import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;

import io.quarkus.hibernate.reactive.panache.PanacheRepositoryBase;
import io.quarkus.panache.common.Parameters;
import io.quarkus.panache.common.Sort;
import io.smallrye.mutiny.Uni;


/**
 * Reads of reminders through Panache: a user's list, whose optional conditions read best as a query. Every write goes
 * through the ledger ({@link dev.tickler.ledger.ReminderLedger}).
 */
@ApplicationScoped
public class ReminderRepository implements PanacheRepositoryBase<Reminder, Long> {

    /**
     * One page of a user's reminders of the tenant (null: every tenant) in (fire_at, id) order, starting after the given
     * position, narrowed by the filter.
     */
    public Uni<List<Reminder>> listForUser(String tenant, String userId, ListFilter filter, ListPosition after,
            int maxRows) {
        StringBuilder query = new StringBuilder("userId = :userId");
        Parameters parameters = Parameters.with("userId", userId);
        if (tenant != null) {
            query.append(" and tenant = :tenant");
            parameters.and("tenant", tenant);
        }
        if (!filter.states().isEmpty()) {
            query.append(" and state in :states");
            parameters.and("states", filter.states());
        }
        if (filter.template() != null) {
            query.append(" and template = :template");
            parameters.and("template", filter.template());
        }
        if (filter.tag() != null) {
            query.append(" and array_contains(tags, :tag)");
            parameters.and("tag", filter.tag());
        }
        if (after != null) {
            // the first condition alone bounds the index scan; the second breaks ties among equal times
            query.append(" and fireAt >= :afterFireAt and (fireAt > :afterFireAt or id > :afterId)");
            parameters.and("afterFireAt", after.fireAt()).and("afterId", after.id());
        }
        return find(query.toString(), Sort.by("fireAt").and("id"), parameters).range(0, maxRows - 1).list();
    }
}
