package dev.tickler.reminder;

import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.LockModeType;

import io.quarkus.hibernate.reactive.panache.PanacheRepositoryBase;
import io.quarkus.panache.common.Parameters;
import io.quarkus.panache.common.Sort;
import io.smallrye.mutiny.Uni;
import io.vertx.core.json.JsonObject;

import dev.tickler.timeline.Timeline;
import dev.tickler.timeline.TimelineEvent;
import dev.tickler.ledger.ReminderState;

@ApplicationScoped
public class ReminderRepository implements PanacheRepositoryBase<Reminder, Long> {

    /** Writes a change's timeline event in the change's own transaction (docs/contract.md#timeline). */
    public Uni<Void> appendEvent(TimelineEvent event) {
        return getSession().chain(session -> session.createNativeQuery(Timeline.APPEND_ONE_NATIVE)
                .setParameter(1, event.reminderId()).setParameter(2, event.at())
                .setParameter(3, event.type().wireName()).setParameter(4, new JsonObject(event.detail()).encode())
                .executeUpdate()).replaceWithVoid();
    }

    /** Locks the row until the transaction ends, so a change and a claim never interleave. */
    public Uni<Reminder> findByIdForUpdate(long id) {
        return findById(id, LockModeType.PESSIMISTIC_WRITE);
    }

    /** One page of a user's reminders in (fire_at, id) order, starting after the given position. */
    public Uni<List<Reminder>> listForUser(String userId, ReminderState state, ListPosition after, int maxRows) {
        StringBuilder query = new StringBuilder("userId = :userId");
        Parameters parameters = Parameters.with("userId", userId);
        if (state != null) {
            query.append(" and state = :state");
            parameters.and("state", state);
        }
        if (after != null) {
            query.append(" and (fireAt > :afterFireAt or (fireAt = :afterFireAt and id > :afterId))");
            parameters.and("afterFireAt", after.fireAt()).and("afterId", after.id());
        }
        return find(query.toString(), Sort.by("fireAt").and("id"), parameters).range(0, maxRows - 1).list();
    }
}
