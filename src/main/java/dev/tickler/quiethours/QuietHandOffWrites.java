package dev.tickler.quiethours;

import static dev.tickler.db.SqlTimestamps.utc;
import static dev.tickler.ledger.ReminderState.EXPIRED;
import static dev.tickler.ledger.ReminderState.HANDED_OFF;
import static dev.tickler.ledger.ReminderState.PENDING;
import static dev.tickler.ledger.ReminderState.SKIPPED;
import static dev.tickler.timeline.TimelineSql.recording;

import java.time.Instant;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;

import dev.tickler.timeline.EventType;
import dev.tickler.timeline.TimelineSql.Event;

/**
 * What a quiet-hours decision writes to a pending reminder at hand-off (at creation and in the sweep), each with its
 * timeline event in the same statement. Each names the row's version and hand-off number and applies only while the
 * row is still pending, so a cancel or a racing hand-off wins. The client is the sweep's connection (which holds the
 * row's lock) or the pool.
 */
@ApplicationScoped
public class QuietHandOffWrites {

    /** The deferred event's time is when the decision was made, so it comes before the publish it caused. */
    static final String MARK_DEFERRED = recording("UPDATE reminders SET state = " + HANDED_OFF.sql() + ","
            + " message_id = $4, deferred_until = $5, updated_at = $6 WHERE id = $1 AND version = $2 AND handoff = $3"
            + " AND state = " + PENDING.sql() + " RETURNING id",
            Event.of("$6", EventType.DEFERRED, "'until'", "$7::text", "'reason'", "'quiet_hours'::text"));

    static final String MARK_SKIPPED = recording("UPDATE reminders SET state = " + SKIPPED.sql() + ", updated_at = $4"
            + " WHERE id = $1 AND version = $2 AND handoff = $3 AND state = " + PENDING.sql() + " RETURNING id",
            Event.of("$4", EventType.SKIPPED, "'reason'", "'quiet_hours'::text"));

    static final String MARK_EXPIRED = recording("UPDATE reminders SET state = " + EXPIRED.sql() + ", updated_at = $4"
            + " WHERE id = $1 AND version = $2 AND handoff = $3 AND state = " + PENDING.sql() + " RETURNING id",
            Event.of("$4", EventType.EXPIRED, "'error'", "$5::text"));

    /**
     * Published for the window's end: handed off, waiting for the queue until dueAt (the window's end {@code until},
     * or the queue's ceiling when sooner), its next send time.
     */
    public Uni<Boolean> deferred(SqlClient client, long id, int version, int handoff, String messageId, Instant dueAt,
            Instant until, Instant decidedAt) {
        return execute(client, MARK_DEFERRED, Tuple.from(List.of(id, version, handoff, messageId, utc(dueAt),
                utc(decidedAt), until.toString())));
    }

    public Uni<Boolean> skipped(SqlClient client, long id, int version, int handoff, Instant now) {
        return execute(client, MARK_SKIPPED, Tuple.of(id, version, handoff, utc(now)));
    }

    public Uni<Boolean> expired(SqlClient client, long id, int version, int handoff, String error, Instant now) {
        return execute(client, MARK_EXPIRED, Tuple.of(id, version, handoff, utc(now), error));
    }

    private static Uni<Boolean> execute(SqlClient client, String sql, Tuple parameters) {
        return client.preparedQuery(sql).execute(parameters).map(rows -> rows.rowCount() == 1);
    }
}
