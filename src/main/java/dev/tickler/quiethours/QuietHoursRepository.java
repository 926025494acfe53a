package dev.tickler.quiethours;

import static dev.tickler.db.SqlTimestamps.instant;
import static dev.tickler.db.SqlTimestamps.utc;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.Tuple;

/**
 * The quiet_hours table, one row per tenant and user. A PUT is one upsert, so concurrent PUTs leave one of them whole; the
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
            + " FROM quiet_hours q WHERE q.tenant = reminders.tenant AND q.user_id = reminders.user_id) END"
            + " AS quiet_hours";

    /** The {@link #OF_REMINDER} column of a row: empty when the user has none or the reminder is urgent. */
    public static Optional<QuietHours> ofReminder(Row row) {
        return Optional.ofNullable(row.getString("quiet_hours")).map(QuietHours::fromJson);
    }

    private static final String SELECT = "SELECT q.tenant, q.user_id, " + AS_JSON + " AS quiet_hours, q.updated_at"
            + " FROM quiet_hours q";

    private static final String UPSERT = "WITH q AS (INSERT INTO quiet_hours (tenant, user_id, tz, windows, policy,"
            + " updated_at) VALUES ($1, $2, $3, ($4::text)::jsonb, $5, $6) ON CONFLICT (tenant, user_id) DO UPDATE SET"
            + " tz = excluded.tz, windows = excluded.windows, policy = excluded.policy, updated_at = excluded.updated_at"
            + " RETURNING *) SELECT q.tenant, q.user_id, " + AS_JSON + " AS quiet_hours, q.updated_at FROM q";

    private final Pool pool;

    public QuietHoursRepository(Pool pool) {
        this.pool = pool;
    }

    public Uni<Optional<StoredQuietHours>> find(String tenant, String userId) {
        return pool.preparedQuery(SELECT + " WHERE q.tenant = $1 AND q.user_id = $2").execute(Tuple.of(tenant, userId))
                .map(QuietHoursRepository::firstIn);
    }

    /** An operator's view: the user's quiet hours in every tenant that set some, by tenant. */
    public Uni<List<StoredQuietHours>> findInEveryTenant(String userId) {
        return pool.preparedQuery(SELECT + " WHERE q.user_id = $1 ORDER BY q.tenant").execute(Tuple.of(userId))
                .map(rows -> {
                    List<StoredQuietHours> found = new ArrayList<>();
                    for (Row row : rows) {
                        found.add(stored(row));
                    }
                    return found;
                });
    }

    /** The quiet hours of each of these users that has some, by user. */
    public Uni<Map<TenantUser, QuietHours>> findAll(Collection<TenantUser> users) {
        if (users.isEmpty()) {
            return Uni.createFrom().item(Map.of());
        }
        return pool.preparedQuery(SELECT + " JOIN unnest($1::text[], $2::text[]) AS u(tenant, user_id)"
                        + " ON q.tenant = u.tenant AND q.user_id = u.user_id")
                .execute(Tuple.of(users.stream().map(TenantUser::tenant).toArray(String[]::new),
                        users.stream().map(TenantUser::userId).toArray(String[]::new)))
                .map(rows -> {
                    Map<TenantUser, QuietHours> byUser = new HashMap<>();
                    for (Row row : rows) {
                        byUser.put(new TenantUser(row.getString("tenant"), row.getString("user_id")),
                                QuietHours.fromJson(row.getString("quiet_hours")));
                    }
                    return byUser;
                });
    }

    /** Sets the user's quiet hours, replacing any; answers the row as stored. */
    public Uni<StoredQuietHours> put(String tenant, String userId, QuietHours quietHours, Instant now) {
        return pool.preparedQuery(UPSERT)
                .execute(Tuple.of(tenant, userId, quietHours.zone().getId(), new io.vertx.core.json.JsonArray(
                        quietHours.windowsAsJson()).encode(), quietHours.policy().wireName(), utc(now)))
                .map(rows -> firstIn(rows).orElseThrow());
    }

    /** True when there were quiet hours to remove. */
    public Uni<Boolean> delete(String tenant, String userId) {
        return pool.preparedQuery("DELETE FROM quiet_hours WHERE tenant = $1 AND user_id = $2")
                .execute(Tuple.of(tenant, userId))
                .map(rows -> rows.rowCount() == 1);
    }

    private static Optional<StoredQuietHours> firstIn(RowSet<Row> rows) {
        if (rows.size() == 0) {
            return Optional.empty();
        }
        return Optional.of(stored(rows.iterator().next()));
    }

    private static StoredQuietHours stored(Row row) {
        return new StoredQuietHours(row.getString("tenant"), row.getString("user_id"),
                QuietHours.fromJson(row.getString("quiet_hours")), instant(row, "updated_at"));
    }
}
