package dev.tickler.operator;

import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import jakarta.enterprise.context.ApplicationScoped;

import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;

/**
 * Reminders written straight into the table, in any state and with any column value, for the operator calls to
 * find; and removed again, so that no other test sees them.
 */
@ApplicationScoped
public class SeededReminders {

    private final Pool pool;

    public SeededReminders(Pool pool) {
        this.pool = pool;
    }

    /** A reminder of this user to describe column by column, then {@link Row#insert()}. */
    public Row of(String userId) {
        return new Row(userId);
    }

    /**
     * {@code count} reminders of one user in one state, each with its own template, fire_at one second apart from
     * {@code firstFireAt}; the other columns keep their defaults. Answers their ids in fire_at order.
     */
    public List<Long> many(String userId, String channel, String state, int count, Instant firstFireAt) {
        List<Long> ids = new ArrayList<>();
        pool.preparedQuery("INSERT INTO reminders (user_id, channel, template, fire_at, state)"
                        + " SELECT $1, $2, 't' || g, $3::timestamptz + (g - 1) * interval '1 second', $4"
                        + " FROM generate_series(1, $5::int) g ORDER BY g RETURNING id")
                .execute(Tuple.of(userId, channel, firstFireAt.atOffset(ZoneOffset.UTC), state, count))
                .await().indefinitely()
                .forEach(row -> ids.add(row.getLong(0)));
        return ids;
    }

    /** Deletes every reminder of these users. */
    public void deleteAllOf(List<String> userIds) {
        pool.preparedQuery("DELETE FROM reminders WHERE user_id = ANY($1)")
                .execute(Tuple.of(userIds.toArray(String[]::new))).await().indefinitely();
    }

    public final class Row {

        private final Map<String, Object> columns = new LinkedHashMap<>();

        private Row(String userId) {
            columns.put("user_id", userId);
            columns.put("channel", "email");
            columns.put("template", "trial_ending");
            columns.put("state", "pending");
        }

        public Row channel(String channel) {
            return set("channel", channel);
        }

        public Row template(String template) {
            return set("template", template);
        }

        public Row state(String state) {
            return set("state", state);
        }

        public Row fireAt(Instant fireAt) {
            return set("fire_at", fireAt);
        }

        public Row lastError(String lastError) {
            return set("last_error", lastError);
        }

        /** Any other column, e.g. version, attempts, sent_at, updated_at. */
        public Row set(String column, Object value) {
            columns.put(column, value instanceof Instant instant ? instant.atOffset(ZoneOffset.UTC) : value);
            return this;
        }

        /** Writes the row and answers its id. */
        public long insert() {
            List<String> placeholders = new ArrayList<>();
            for (int i = 1; i <= columns.size(); i++) {
                placeholders.add("$" + i);
            }
            String sql = "INSERT INTO reminders (" + String.join(", ", columns.keySet()) + ") VALUES ("
                    + String.join(", ", placeholders) + ") RETURNING id";
            return pool.preparedQuery(sql).execute(Tuple.from(new ArrayList<>(columns.values())))
                    .await().indefinitely().iterator().next().getLong(0);
        }
    }
}
