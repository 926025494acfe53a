package dev.tickler.testing;

import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;

import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Transaction;
import io.vertx.mutiny.sqlclient.Tuple;

/** Puts rows into states the API cannot reach yet (sent, delivering…) by writing the real table. */
@ApplicationScoped
public class Database {

    private final Pool pool;

    /** Writes held back until closed. */
    public interface Held extends AutoCloseable {
        @Override
        void close();
    }

    public Database(Pool pool) {
        this.pool = pool;
    }

    /**
     * Holds every write to {@code table} until closed, as a slow statement would, while reads go on: a SHARE lock in a
     * transaction left open, rolled back at close.
     */
    public Held holdWrites(String table) {
        SqlConnection connection = pool.getConnection().await().indefinitely();
        try {
            Transaction transaction = connection.begin().await().indefinitely();
            connection.query("LOCK TABLE " + table + " IN SHARE MODE").execute().await().indefinitely();
            return () -> {
                transaction.rollback().await().indefinitely();
                connection.close().await().indefinitely();
            };
        } catch (RuntimeException e) {
            connection.close().await().indefinitely();
            throw e;
        }
    }

    public void setState(long reminderId, String state) {
        execute("update reminders set state = $1 where id = $2", state, reminderId);
    }

    public void execute(String sql, Object... parameters) {
        pool.preparedQuery(sql).execute(Tuple.from(parameters)).await().indefinitely();
    }

    /** Parked reminders for one user, one a second from fireAt on, written straight into the table; answers their ids. */
    public List<Long> insertParked(String userId, int count, Instant fireAt) {
        List<Long> ids = new ArrayList<>();
        pool.preparedQuery("INSERT INTO reminders (user_id, channel, template, fire_at, state)"
                        + " SELECT $1, 'email', 't' || g, $2::timestamptz + g * interval '1 second', 'pending'"
                        + " FROM generate_series(1, $3) g RETURNING id")
                .execute(Tuple.of(userId, fireAt.atOffset(ZoneOffset.UTC), count))
                .await().indefinitely()
                .forEach(row -> ids.add(row.getLong(0)));
        return ids;
    }

    /**
     * One reminder written straight into the table, for states and values the API refuses or cannot reach; every
     * column not given keeps its default. Answers its id.
     */
    public long insertReminder(String userId, String state, Instant fireAt, String extraColumns, Object... extraValues) {
        StringBuilder columns = new StringBuilder("user_id, channel, template, fire_at, state");
        StringBuilder values = new StringBuilder("$1, 'email', 'trial_ending', $2, $3");
        List<Object> parameters = new ArrayList<>(List.of(userId, fireAt.atOffset(ZoneOffset.UTC), state));
        if (!extraColumns.isEmpty()) {
            columns.append(", ").append(extraColumns);
            for (Object value : extraValues) {
                parameters.add(value instanceof Instant instant ? instant.atOffset(ZoneOffset.UTC) : value);
                values.append(", $").append(parameters.size());
            }
        }
        return pool.preparedQuery("INSERT INTO reminders (" + columns + ") VALUES (" + values + ") RETURNING id")
                .execute(Tuple.from(parameters)).await().indefinitely().iterator().next().getLong(0);
    }

    /** The first column of the first row as text; null when there is no row. */
    public String text(String sql, Object... parameters) {
        var rows = pool.preparedQuery(sql).execute(Tuple.from(parameters)).await().indefinitely();
        return rows.size() == 0 ? null : rows.iterator().next().getString(0);
    }

    public long count(String sql, Object... parameters) {
        return pool.preparedQuery(sql).execute(Tuple.from(parameters))
                .await().indefinitely()
                .iterator().next().getLong(0);
    }
}
