package dev.tickler.operator;

import static dev.tickler.db.SqlTimestamps.utc;

import java.util.ArrayList;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.Tuple;

import dev.tickler.reminder.ListPosition;
import dev.tickler.reminder.ReminderRow;

/** The operator API's SQL (SPEC §13): search across all users; filters of any shape are why this uses the SQL client. */
@ApplicationScoped
public class OperatorReminderRepository {

    /** One statement with its parameters. */
    record Statement(String sql, Tuple parameters) {
    }

    private final Pool pool;

    public OperatorReminderRepository(Pool pool) {
        this.pool = pool;
    }

    /** Up to maxRows matching reminders in (fire_at, id) order, after the given position. */
    public Uni<List<ReminderRow>> search(ReminderFilter filter, ListPosition after, int maxRows) {
        Statement search = searchStatement(filter, after, maxRows);
        return pool.preparedQuery(search.sql()).execute(search.parameters()).map(OperatorReminderRepository::rows);
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
