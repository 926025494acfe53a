package dev.tickler.operator;

import static dev.tickler.db.SqlTimestamps.utc;
import static dev.tickler.ledger.ReminderState.CANCELLED;
import static dev.tickler.ledger.ReminderState.PENDING;
import static dev.tickler.timeline.TimelineSql.recording;

import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

import jakarta.enterprise.context.ApplicationScoped;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;

import dev.tickler.reminder.ListPosition;
import dev.tickler.ledger.ReminderRow;
import dev.tickler.ledger.ReminderState;
import dev.tickler.timeline.EventType;
import dev.tickler.timeline.TimelineSql.Event;

/**
 * The operator API's SQL (docs/contract.md#operator-api): search across all users, and the bulk state changes, each
 * batch one statement that picks its rows with FOR UPDATE SKIP LOCKED inside the caller's transaction. Filters of any
 * shape and those locks are why this uses the SQL client beside Panache. A batch picks its ids once, as an array, and
 * changes them through the primary key: {@code id = ANY(ARRAY(…))}, unlike {@code id IN (…)}, never becomes a hash join
 * over the whole table.
 */
@ApplicationScoped
public class OperatorReminderRepository {

    /** One statement with its parameters. */
    record Statement(String sql, Tuple parameters) {
    }

    private final Pool pool;

    public OperatorReminderRepository(Pool pool) {
        this.pool = pool;
    }

    public <T> Uni<T> inTransaction(Function<SqlConnection, Uni<T>> work) {
        return pool.withTransaction(work);
    }

    /** Up to maxRows matching reminders in (fire_at, id) order, after the given position. */
    public Uni<List<ReminderRow>> search(ReminderFilter filter, ListPosition after, int maxRows) {
        Statement search = searchStatement(filter, after, maxRows);
        return pool.preparedQuery(search.sql()).execute(search.parameters()).map(OperatorReminderRepository::rows);
    }

    /** How many reminders match the filter in one of the given states. */
    public Uni<Long> count(ReminderFilter filter, Set<ReminderState> states) {
        FilterSql sql = FilterSql.of(filter, states);
        return pool.preparedQuery("SELECT count(*) FROM reminders" + sql.whereClause()).execute(sql.parameters())
                .map(rows -> rows.iterator().next().getLong(0));
    }

    /**
     * Cancels the next batch of matching reminders in id order after {@code afterId}, as DELETE does: a new version,
     * so any message still on the queue is stale. Rows another transaction holds are skipped. Answers the ids.
     */
    public Uni<List<Long>> cancelBatch(SqlConnection connection, ReminderFilter filter, Set<ReminderState> states,
            long afterId, int batchSize, Instant now, String by) {
        Statement cancel = cancelStatement(filter, states, afterId, batchSize, now, by);
        return connection.preparedQuery(cancel.sql()).execute(cancel.parameters()).map(rows -> {
            List<Long> ids = new ArrayList<>(rows.size());
            rows.forEach(row -> ids.add(row.getLong(0)));
            return ids;
        });
    }

    /**
     * Redrives the next batch of matching failed reminders in (fire_at, id) order after the given position (null:
     * from the start), as the single redrive does: same version, next hand-off number, attempts reset, pending until
     * it is published. Rows another transaction holds are skipped. Answers the rows as they now are.
     */
    public Uni<List<ReminderRow>> redriveBatch(SqlConnection connection, ReminderFilter filter, ListPosition after,
            int batchSize, Instant now, String by) {
        Statement redrive = redriveStatement(filter, after, batchSize, now, by);
        return connection.preparedQuery(redrive.sql()).execute(redrive.parameters())
                .map(OperatorReminderRepository::rows);
    }

    static Statement searchStatement(ReminderFilter filter, ListPosition after, int maxRows) {
        FilterSql sql = FilterSql.of(filter, null);
        if (after != null) {
            afterPosition(sql, after);
        }
        String where = sql.whereClause();
        return new Statement("SELECT " + ReminderRow.COLUMNS + " FROM reminders" + where
                + " ORDER BY fire_at, id LIMIT " + sql.parameter(maxRows), sql.parameters());
    }

    /** The cancel, with each reminder's cancelled event naming the key (docs/contract.md#timeline). */
    static Statement cancelStatement(ReminderFilter filter, Set<ReminderState> states, long afterId, int batchSize,
            Instant now, String by) {
        FilterSql sql = FilterSql.of(filter, states);
        sql.where("id > " + sql.parameter(afterId));
        String picked = "SELECT id FROM reminders" + sql.whereClause() + " ORDER BY id LIMIT "
                + sql.parameter(batchSize) + " FOR UPDATE SKIP LOCKED";
        String at = sql.parameter(utc(now));
        return new Statement(recording("UPDATE reminders SET state = " + CANCELLED.sql() + ", version = version + 1,"
                + " lease_until = NULL, updated_at = " + at + " WHERE id = ANY(ARRAY(" + picked + ")) RETURNING id",
                Event.of(at, EventType.CANCELLED, "'by'", sql.parameter(by) + "::text")), sql.parameters());
    }

    /** The redrive, with each reminder's redriven event naming the key (docs/contract.md#timeline). */
    static Statement redriveStatement(ReminderFilter filter, ListPosition after, int batchSize, Instant now,
            String by) {
        FilterSql sql = FilterSql.of(filter, EnumSet.of(ReminderState.FAILED));
        if (after != null) {
            afterPosition(sql, after);
        }
        String picked = "SELECT id FROM reminders" + sql.whereClause() + " ORDER BY fire_at, id LIMIT "
                + sql.parameter(batchSize) + " FOR UPDATE SKIP LOCKED";
        String at = sql.parameter(utc(now));
        return new Statement(recording("UPDATE reminders SET state = " + PENDING.sql()
                + ", handoff = handoff + 1, attempts = 0, takeovers = 0, last_error = NULL, message_id = NULL,"
                + " deferred_until = " + at + ", updated_at = " + at
                + " WHERE id = ANY(ARRAY(" + picked + ")) RETURNING " + ReminderRow.COLUMNS,
                Event.of(at, EventType.REDRIVEN, "'by'", sql.parameter(by) + "::text")), sql.parameters());
    }

    /** Keyset condition; the plain lower bound on fire_at lets an index on fire_at alone narrow the scan too. */
    private static void afterPosition(FilterSql sql, ListPosition after) {
        String fireAt = sql.parameter(utc(after.fireAt()));
        sql.where("fire_at >= " + fireAt).where("(fire_at, id) > (" + fireAt + ", " + sql.parameter(after.id()) + ")");
    }

    private static List<ReminderRow> rows(RowSet<Row> rows) {
        List<ReminderRow> found = new ArrayList<>(rows.size());
        rows.forEach(row -> found.add(ReminderRow.from(row)));
        return found;
    }
}
