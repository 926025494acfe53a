package dev.tickler.sweep;

import static dev.tickler.db.SqlTimestamps.instant;
import static dev.tickler.db.SqlTimestamps.utc;
import static dev.tickler.ledger.ReminderState.CANCELLED;
import static dev.tickler.ledger.ReminderState.DELIVERING;
import static dev.tickler.ledger.ReminderState.EXPIRED;
import static dev.tickler.ledger.ReminderState.FAILED;
import static dev.tickler.ledger.ReminderState.HANDED_OFF;
import static dev.tickler.ledger.ReminderState.PENDING;
import static dev.tickler.ledger.ReminderState.SENT;
import static dev.tickler.ledger.ReminderState.SKIPPED;
import static dev.tickler.ledger.ReminderState.sqlList;
import static dev.tickler.timeline.TimelineSql.recording;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

import jakarta.enterprise.context.ApplicationScoped;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;

import dev.tickler.delivery.TakeOverReason;
import dev.tickler.publish.ReminderMessage;
import dev.tickler.ledger.Deferrals;
import dev.tickler.quiethours.QuietHours;
import dev.tickler.quiethours.QuietHoursRepository;
import dev.tickler.timeline.EventType;
import dev.tickler.timeline.TimelineSql.Event;

/**
 * The sweep's SQL. Batches are claimed with FOR UPDATE SKIP LOCKED, so sweeps on many instances share the work
 * instead of repeating it; that and the batch UPDATE from arrays are why this uses the SQL client directly.
 */
@ApplicationScoped
public class SweepRepository {

    /**
     * A reminder the reconciler takes over, and why. Its message carries the registration's traceparent, which the
     * take-over's trace links to.
     */
    public record Overdue(ReminderMessage message, TakeOverReason reason) {
    }

    /**
     * A parked reminder inside the window, with what its publish needs and its user's quiet hours (or null): the
     * publish starts a trace of its own, linked to the registration's ({@code traceContext}, null when it was
     * registered with tracing off).
     */
    public record Parked(long id, int version, int handoff, String channel, Instant fireAt, Instant expiresAt,
            QuietHours quietHours, String traceContext, Long scheduleId) {
    }

    /**
     * Reads only the partial index on pending rows, from the position the run's last batch ended at ($3, $4): rows
     * read ≈ rows handed off, and a row whose publish failed is not read again by the same run.
     */
    static final String DUE_PARKED = "SELECT id, version, handoff, channel, fire_at, expires_at, trace_context,"
            + " schedule_id, "
            + QuietHoursRepository.OF_REMINDER + " FROM reminders"
            + " WHERE state = " + PENDING.sql() + " AND fire_at <= $1 AND (fire_at, id) > ($3, $4)"
            + " ORDER BY fire_at, id LIMIT $2 FOR UPDATE OF reminders SKIP LOCKED";

    /** Two small partial indexes answer it (handed_off by fire_at, delivering by lease): cheap when all is well. */
    static final String OVERDUE = "SELECT id, version, state, trace_context FROM reminders"
            + " WHERE (state = " + HANDED_OFF.sql() + " AND " + Deferrals.OVERDUE_BEFORE_$1 + " AND updated_at < $1)"
            + " OR (state = " + DELIVERING.sql() + " AND lease_until < $2)"
            + " ORDER BY id LIMIT $3";

    static final String EXPIRE_WAITING = recording("UPDATE reminders SET state = " + EXPIRED.sql() + ", updated_at = $1"
            + " WHERE expires_at IS NOT NULL AND expires_at < $1 AND state IN " + sqlList(PENDING, HANDED_OFF)
            + " RETURNING id, schedule_id",
            Event.of("$1", EventType.EXPIRED));

    /** Finished reminders past their retention, oldest change first, a bounded batch in one short transaction. */
    static final String DELETE_FINISHED = withTheirEvents("DELETE FROM reminders WHERE id IN (SELECT id FROM reminders"
            + " WHERE state IN " + sqlList(SENT, CANCELLED, EXPIRED, SKIPPED) + " AND updated_at < $1"
            + " ORDER BY updated_at LIMIT $2 FOR UPDATE SKIP LOCKED) RETURNING id");

    static final String DELETE_FAILED = withTheirEvents("DELETE FROM reminders WHERE id IN (SELECT id FROM reminders"
            + " WHERE state = " + FAILED.sql() + " AND updated_at < $1"
            + " ORDER BY updated_at LIMIT $2 FOR UPDATE SKIP LOCKED) RETURNING id");

    /** A reminder's timeline goes with it (docs/contract.md#retention); answers one row per reminder deleted. */
    private static String withTheirEvents(String deleteReminders) {
        return "WITH gone AS (" + deleteReminders + "), events AS (DELETE FROM reminder_events e USING gone"
                + " WHERE e.reminder_id = gone.id) SELECT id FROM gone";
    }

    private static final String NOT_DURABLE = "SET LOCAL synchronous_commit = off";

    private final Pool pool;

    public SweepRepository(Pool pool) {
        this.pool = pool;
    }

    public <T> Uni<T> inTransaction(Function<SqlConnection, Uni<T>> work) {
        return pool.withTransaction(work);
    }

    /** Where a run's walk over the parked rows stands: the last row of its last batch. */
    public record ParkedPosition(OffsetDateTime fireAt, long id) {

        public static final ParkedPosition START = new ParkedPosition(OffsetDateTime.MIN, 0);

        public static ParkedPosition of(Parked parked) {
            return new ParkedPosition(utc(parked.fireAt()), parked.id());
        }
    }

    /** The next batch of due parked rows after the given position, locked for this transaction. */
    public Uni<List<Parked>> lockDueParked(SqlConnection connection, Instant horizon, ParkedPosition after,
            int batchSize) {
        Tuple parameters = Tuple.of(utc(horizon), batchSize, after.fireAt(), after.id());
        return connection.preparedQuery(DUE_PARKED).execute(parameters).map(rows -> {
            List<Parked> parked = new ArrayList<>();
            for (Row row : rows) {
                String quietHours = row.getString("quiet_hours");
                parked.add(new Parked(row.getLong("id"), row.getInteger("version"), row.getInteger("handoff"),
                        row.getString("channel"), instant(row, "fire_at"), instant(row, "expires_at"),
                        quietHours == null ? null : QuietHours.fromJson(quietHours), row.getString("trace_context"),
                        row.getLong("schedule_id")));
            }
            return parked;
        });
    }

    /** Marks published reminders handed off, each with its message id, in one statement. */
    public Uni<Integer> markHandedOff(SqlConnection connection, List<Long> ids, List<String> messageIds, Instant now) {
        if (ids.isEmpty()) {
            return Uni.createFrom().item(0);
        }
        return connection.preparedQuery("UPDATE reminders r SET state = " + HANDED_OFF.sql()
                        + ", message_id = m.message_id, updated_at = $3 FROM unnest($1::bigint[], $2::text[]) AS m(id, message_id)"
                        + " WHERE r.id = m.id AND r.state = " + PENDING.sql())
                .execute(Tuple.of(ids.toArray(Long[]::new), messageIds.toArray(String[]::new), utc(now)))
                .map(rows -> rows.rowCount());
    }

    /**
     * Reminders to deliver again: handed off, overdue by the grace and not handed back within it, or delivering
     * with a lease that ran out (the instance that claimed them died).
     */
    public Uni<List<Overdue>> overdue(Instant overdueBefore, Instant now, int limit) {
        return pool.preparedQuery(OVERDUE)
                .execute(Tuple.of(utc(overdueBefore), utc(now), limit))
                .map(rows -> {
                    List<Overdue> overdue = new ArrayList<>();
                    for (Row row : rows) {
                        overdue.add(new Overdue(new ReminderMessage(row.getLong("id"), row.getInteger("version"),
                                        row.getString("trace_context"), null),
                                row.getString("state").equals("delivering")
                                        ? TakeOverReason.LEASE_EXPIRED : TakeOverReason.PUSH_OVERDUE));
                    }
                    return overdue;
                });
    }

    /** Deletes one batch of sent, cancelled, expired and skipped reminders last changed before the cut-off. */
    public Uni<Integer> deleteFinished(Instant changedBefore, int limit) {
        return deleteBatch(DELETE_FINISHED, changedBefore, limit);
    }

    /** Deletes one batch of failed reminders last changed before the cut-off. */
    public Uni<Integer> deleteFailed(Instant changedBefore, int limit) {
        return deleteBatch(DELETE_FAILED, changedBefore, limit);
    }

    /**
     * A delete that a crash loses is only done again by the next sweep, so its commit does not wait for the WAL
     * flush: the claims' commits, which must, then never queue behind retention's.
     */
    private Uni<Integer> deleteBatch(String delete, Instant changedBefore, int limit) {
        return pool.withTransaction(connection -> connection.query(NOT_DURABLE).execute()
                .chain(() -> connection.preparedQuery(delete).execute(Tuple.of(utc(changedBefore), limit)))
                .map(RowSet::rowCount));
    }

    /**
     * Waiting reminders whose delivery window closed: expired, never sent late. Answers the schedule id of each
     * (null for a one-shot reminder), whose schedule makes room for the next occurrence.
     */
    public Uni<List<Long>> expireWaiting(Instant now) {
        return pool.preparedQuery(EXPIRE_WAITING)
                .execute(Tuple.of(utc(now)))
                .map(rows -> {
                    List<Long> scheduleIds = new ArrayList<>();
                    rows.forEach(row -> scheduleIds.add(row.getLong("schedule_id")));
                    return scheduleIds;
                });
    }
}
