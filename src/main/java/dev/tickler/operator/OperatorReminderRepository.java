package dev.tickler.operator;

import static dev.tickler.db.SqlTimestamps.instant;
import static dev.tickler.db.SqlTimestamps.utc;

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

import dev.tickler.ledger.ReminderRow;
import dev.tickler.ledger.ReminderState;
import dev.tickler.reminder.ListPosition;

/**
 * The operator API's reads (docs/contract.md#operator-api): search across all users, counts, and the batches a bulk
 * change picks with FOR UPDATE SKIP LOCKED inside the caller's transaction, which the ledger then changes by their
 * ids, through the primary key, as it changes one. Filters of any shape and those locks are why this uses the SQL
 * client beside Panache.
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
     * Locks the next batch of matching reminders in one of the given states, in id order after {@code afterId}, for a
     * bulk cancel; rows another transaction holds are skipped. Answers their ids.
     */
    public Uni<List<Long>> pickToCancel(SqlConnection connection, ReminderFilter filter, Set<ReminderState> states,
            long afterId, int batchSize) {
        Statement pick = pickToCancelStatement(filter, states, afterId, batchSize);
        return connection.preparedQuery(pick.sql()).execute(pick.parameters()).map(rows -> {
            List<Long> ids = new ArrayList<>(rows.size());
            rows.forEach(row -> ids.add(row.getLong("id")));
            return ids;
        });
    }

    /**
     * Locks the next batch of matching failed reminders in (fire_at, id) order after the given position (null: from
     * the start), for a bulk redrive; rows another transaction holds are skipped. Answers their positions.
     */
    public Uni<List<ListPosition>> pickToRedrive(SqlConnection connection, ReminderFilter filter, ListPosition after,
            int batchSize) {
        Statement pick = pickToRedriveStatement(filter, after, batchSize);
        return connection.preparedQuery(pick.sql()).execute(pick.parameters()).map(rows -> {
            List<ListPosition> positions = new ArrayList<>(rows.size());
            rows.forEach(row -> positions.add(new ListPosition(instant(row, "fire_at"), row.getLong("id"))));
            return positions;
        });
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

    static Statement pickToCancelStatement(ReminderFilter filter, Set<ReminderState> states, long afterId,
            int batchSize) {
        FilterSql sql = FilterSql.of(filter, states);
        sql.where("id > " + sql.parameter(afterId));
        return new Statement("SELECT id FROM reminders" + sql.whereClause() + " ORDER BY id LIMIT "
                + sql.parameter(batchSize) + " FOR UPDATE SKIP LOCKED", sql.parameters());
    }

    static Statement pickToRedriveStatement(ReminderFilter filter, ListPosition after, int batchSize) {
        FilterSql sql = FilterSql.of(filter, EnumSet.of(ReminderState.FAILED));
        if (after != null) {
            afterPosition(sql, after);
        }
        return new Statement("SELECT id, fire_at FROM reminders" + sql.whereClause() + " ORDER BY fire_at, id LIMIT "
                + sql.parameter(batchSize) + " FOR UPDATE SKIP LOCKED", sql.parameters());
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
