package dev.tickler.timeline;

import static dev.tickler.db.SqlTimestamps.instant;
import static dev.tickler.db.SqlTimestamps.utc;

import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;

import org.jboss.logging.Logger;

import io.smallrye.mutiny.Uni;
import io.vertx.core.json.JsonObject;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;

import dev.tickler.db.WireNamed;

/**
 * Reminders' histories (docs/contract.md#timeline). Events that come with a state change are written by that change's
 * own statement ({@link TimelineSql}); this writes the others (a publish, a message that claimed nothing) and reads
 * them back.
 */
@ApplicationScoped
public class Timeline {

    private static final Logger LOG = Logger.getLogger(Timeline.class);

    private static final String APPEND = "INSERT INTO reminder_events (reminder_id, at, type, detail)"
            + " SELECT r, a, t, d::jsonb FROM unnest($1::bigint[], $2::timestamptz[], $3::text[], $4::text[])"
            + " AS e(r, a, t, d)";

    /**
     * In the order things happened: by time, then by the order written (a publish's event is written once the queue
     * has answered, perhaps after the push it caused, but carries the moment it was sent). The reminder's row comes
     * even with no event after the cursor: no row at all means there is no such reminder.
     */
    private static final String PAGE = "SELECT e.id, e.at, e.type, e.detail FROM reminders r"
            + " LEFT JOIN LATERAL (SELECT id, at, type, detail FROM reminder_events"
            + " WHERE reminder_id = r.id AND (at, id) > ($2, $3) ORDER BY at, id LIMIT $4) e ON true"
            + " WHERE r.id = $1 AND ($5::text IS NULL OR r.tenant = $5) ORDER BY e.at, e.id";

    private final Pool pool;

    public Timeline(Pool pool) {
        this.pool = pool;
    }

    /**
     * Appends events that go with no state change. Never fails: a history entry that could not be written is
     * logged, and the work it describes goes on.
     */
    public Uni<Void> append(List<TimelineEvent> events) {
        if (events.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        int size = events.size();
        Long[] reminders = new Long[size];
        OffsetDateTime[] ats = new OffsetDateTime[size];
        String[] types = new String[size];
        String[] details = new String[size];
        for (int i = 0; i < size; i++) {
            TimelineEvent event = events.get(i);
            reminders[i] = event.reminderId();
            ats[i] = utc(event.at());
            types[i] = event.type().wireName();
            details[i] = new JsonObject(event.detail()).encode();
        }
        return pool.preparedQuery(APPEND)
                .execute(Tuple.tuple().addArrayOfLong(reminders).addArrayOfOffsetDateTime(ats)
                        .addArrayOfString(types).addArrayOfString(details))
                .replaceWithVoid()
                .onFailure().recoverWithItem(failure -> {
                    LOG.warnf("%d timeline events (first: %s of reminder %d) could not be written: %s", size,
                            types[0], reminders[0], failure.getMessage());
                    return null;
                });
    }

    public Uni<Void> append(TimelineEvent event) {
        return append(List.of(event));
    }

    /**
     * A page of the reminder's history after the given position, oldest first; empty when there is no such reminder, or
     * it is not of the tenant (null: whatever its tenant).
     */
    public Uni<Optional<TimelinePage>> page(long reminderId, String tenant, EventPosition after, int limit) {
        EventPosition from = after != null ? after : EventPosition.START;
        return pool.preparedQuery(PAGE).execute(Tuple.of(reminderId, utc(from.at()), from.eventId(), limit + 1, tenant))
                .map(rows -> {
            if (rows.size() == 0) {
                return Optional.empty();
            }
            List<TimelinePage.Entry> entries = new ArrayList<>();
            for (Row row : rows) {
                if (row.getLong("id") != null) {
                    JsonObject detail = row.getJsonObject("detail");
                    entries.add(new TimelinePage.Entry(row.getLong("id"), new TimelineEvent(reminderId,
                            instant(row, "at"), WireNamed.fromWireName(EventType.class, row.getString("type")),
                            detail == null ? Map.of() : detail.getMap())));
                }
            }
            if (entries.size() <= limit) {
                return Optional.of(new TimelinePage(entries, null));
            }
            TimelinePage.Entry last = entries.get(limit - 1);
            return Optional.of(new TimelinePage(entries.subList(0, limit),
                    new EventPosition(last.event().at(), last.eventId())));
        });
    }
}
