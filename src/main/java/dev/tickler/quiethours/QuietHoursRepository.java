package dev.tickler.quiethours;

import static dev.tickler.db.SqlTimestamps.instant;
import static dev.tickler.db.SqlTimestamps.utc;

import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.Tuple;

/**
 * The quiet_hours table, one row per user. A PUT is one upsert, so concurrent PUTs leave one of them whole; the
 * reactive SQL client is used because ON CONFLICT … DO UPDATE is the honest tool for that.
 */
@ApplicationScoped
public class QuietHoursRepository {

    /** The row as {@link QuietHours#fromJson} reads it. */
    private static final String AS_JSON = "json_build_object('tz', q.tz, 'policy', q.policy, 'windows', q.windows)::text";

    /**
     * A column for statements over {@code reminders}: the reminder's user's quiet hours as JSON text, or NULL when
     * there are none or the reminder is urgent. One primary-key probe in the statement that reads the reminder anyway,
     * so the hot path pays no extra round trip ({@link QuietHours#fromJson} reads it back).
     */
    public static final String OF_REMINDER = "CASE WHEN reminders.urgent THEN NULL ELSE (SELECT " + AS_JSON
            + " FROM quiet_hours q WHERE q.user_id = reminders.user_id) END AS quiet_hours";

    private static final String SELECT = "SELECT q.user_id, " + AS_JSON + " AS quiet_hours, q.updated_at FROM quiet_hours q";

    private static final String UPSERT = "WITH q AS (INSERT INTO quiet_hours (user_id, tz, windows, policy, updated_at)"
            + " VALUES ($1, $2, ($3::text)::jsonb, $4, $5) ON CONFLICT (user_id) DO UPDATE SET tz = excluded.tz,"
            + " windows = excluded.windows, policy = excluded.policy, updated_at = excluded.updated_at RETURNING *)"
            + " SELECT q.user_id, " + AS_JSON + " AS quiet_hours, q.updated_at FROM q";

    private final Pool pool;

    public QuietHoursRepository(Pool pool) {
        this.pool = pool;
    }

    public Uni<Optional<StoredQuietHours>> find(String userId) {
        return pool.preparedQuery(SELECT + " WHERE q.user_id = $1").execute(Tuple.of(userId))
                .map(QuietHoursRepository::firstIn);
    }

    /** The quiet hours of each of these users that has some, by user id. */
    public Uni<Map<String, QuietHours>> findAll(Collection<String> userIds) {
        if (userIds.isEmpty()) {
            return Uni.createFrom().item(Map.of());
        }
        return pool.preparedQuery(SELECT + " WHERE q.user_id = ANY($1::text[])")
                .execute(Tuple.of(userIds.toArray(String[]::new)))
                .map(rows -> {
                    Map<String, QuietHours> byUser = new HashMap<>();
                    for (Row row : rows) {
                        byUser.put(row.getString("user_id"), QuietHours.fromJson(row.getString("quiet_hours")));
                    }
                    return byUser;
                });
    }

    /** Sets the user's quiet hours, replacing any; answers the row as stored. */
    public Uni<StoredQuietHours> put(String userId, QuietHours quietHours, Instant now) {
        return pool.preparedQuery(UPSERT)
                .execute(Tuple.of(userId, quietHours.zone().getId(), new io.vertx.core.json.JsonArray(
                        quietHours.windowsAsJson()).encode(), quietHours.policy().wireName(), utc(now)))
                .map(rows -> firstIn(rows).orElseThrow());
    }

    /** True when there were quiet hours to remove. */
    public Uni<Boolean> delete(String userId) {
        return pool.preparedQuery("DELETE FROM quiet_hours WHERE user_id = $1").execute(Tuple.of(userId))
                .map(rows -> rows.rowCount() == 1);
    }

    private static Optional<StoredQuietHours> firstIn(RowSet<Row> rows) {
        if (rows.size() == 0) {
            return Optional.empty();
        }
        Row row = rows.iterator().next();
        return Optional.of(new StoredQuietHours(row.getString("user_id"),
                QuietHours.fromJson(row.getString("quiet_hours")), instant(row, "updated_at")));
    }
}
