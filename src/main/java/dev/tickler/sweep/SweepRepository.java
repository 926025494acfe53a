package dev.tickler.sweep;

import static dev.tickler.db.SqlTimestamps.instant;
import static dev.tickler.db.SqlTimestamps.utc;
import static dev.tickler.ledger.ReminderState.DELIVERING;
import static dev.tickler.ledger.ReminderState.HANDED_OFF;
import static dev.tickler.ledger.ReminderState.PENDING;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

import jakarta.enterprise.context.ApplicationScoped;

import io.opentelemetry.context.Context;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;

import dev.tickler.delivery.TakeOverReason;
import dev.tickler.handoff.HandOff;
import dev.tickler.ledger.Deferrals;
import dev.tickler.publish.ReminderMessage;

/**
 * The sweep's reads. Parked batches are locked with FOR UPDATE SKIP LOCKED, so sweeps on many instances share the work
 * instead of repeating it; that is why this uses the SQL client directly. Every write goes through the ledger.
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
     * Reads only the partial index on pending rows, from the position the run's last batch ended at ($3, $4): rows
     * read ≈ rows handed off, and a row whose publish failed is not read again by the same run.
     */
    static final String DUE_PARKED = "SELECT id, tenant, version, handoff, user_id, channel, fire_at, expires_at, urgent,"
            + " schedule_id, trace_context FROM reminders"
            + " WHERE state = " + PENDING.sql() + " AND fire_at <= $1 AND (fire_at, id) > ($3, $4)"
            + " ORDER BY fire_at, id LIMIT $2 FOR UPDATE OF reminders SKIP LOCKED";

    /**
     * Two small partial indexes answer it (handed_off by fire_at, delivering by lease): cheap when all is well, and a
     * batch's worth from each, the longest overdue first, when much is overdue. Each read on its own: with one OR and
     * ORDER BY id LIMIT, the planner walked the primary key and filtered, a second and more at a million rows, because
     * it takes the many finished rows' past fire_at for overdue handed-off ones.
     */
    static final String OVERDUE = "SELECT * FROM ("
            + "(SELECT id, tenant, version, state, trace_context FROM reminders"
            + " WHERE state = " + HANDED_OFF.sql() + " AND " + Deferrals.OVERDUE_BEFORE_$1 + " AND updated_at < $1"
            + " ORDER BY fire_at LIMIT $3)"
            + " UNION ALL (SELECT id, tenant, version, state, trace_context FROM reminders"
            + " WHERE state = " + DELIVERING.sql() + " AND lease_until < $2 ORDER BY lease_until LIMIT $3)"
            + ") overdue ORDER BY id LIMIT $3";

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

        public static ParkedPosition of(HandOff.Candidate parked) {
            return new ParkedPosition(utc(parked.fireAt()), parked.id());
        }
    }

    /**
     * The next batch of due parked rows after the given position, locked for this transaction; each publish starts a
     * trace of its own, linked to the registration's (its trace_context, null when tracing was off then).
     */
    public Uni<List<HandOff.Candidate>> lockDueParked(SqlConnection connection, Instant horizon, ParkedPosition after,
            int batchSize) {
        Tuple parameters = Tuple.of(utc(horizon), batchSize, after.fireAt(), after.id());
        return connection.preparedQuery(DUE_PARKED).execute(parameters).map(rows -> {
            List<HandOff.Candidate> parked = new ArrayList<>();
            for (Row row : rows) {
                parked.add(new HandOff.Candidate(row.getLong("id"), row.getString("tenant"), row.getInteger("version"),
                        row.getInteger("handoff"), row.getString("user_id"), row.getString("channel"),
                        instant(row, "fire_at"), instant(row, "expires_at"), row.getBoolean("urgent"),
                        row.getLong("schedule_id"), Context.root(), row.getString("trace_context")));
            }
            return parked;
        });
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
                                        row.getString("tenant"), row.getString("trace_context"), null),
                                row.getString("state").equals("delivering")
                                        ? TakeOverReason.LEASE_EXPIRED : TakeOverReason.PUSH_OVERDUE));
                    }
                    return overdue;
                });
    }
}
