package dev.tickler.schedule;

import static dev.tickler.db.SqlTimestamps.utc;
import static dev.tickler.ledger.ReminderState.DELIVERING;
import static dev.tickler.ledger.ReminderState.HANDED_OFF;
import static dev.tickler.ledger.ReminderState.PENDING;
import static dev.tickler.ledger.ReminderState.sqlList;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

import jakarta.enterprise.context.ApplicationScoped;

import io.smallrye.mutiny.Uni;
import io.vertx.core.json.JsonObject;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;

import dev.tickler.db.NamedSql;
import dev.tickler.ledger.ReminderState;

/**
 * The schedules table, and the reads of a schedule's occurrences that its changes lock or count; the occurrences
 * themselves are written through the ledger. The SQL client beside Panache because a top-up is a row lock, a count and
 * multi-row inserts from arrays in one transaction.
 */
@ApplicationScoped
public class ScheduleRepository {

    /** Registers the schedule unless its natural key is taken (the unique index of migration V16). */
    private static final String INSERT = "INSERT INTO schedules (user_id, channel, template, data, expires_after, tz,"
            + " start, rrule, dst_gap, dst_overlap, catch_up, created_by, created_at, updated_at, tenant)"
            + " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $13, $14)"
            + " ON CONFLICT (tenant, user_id, template, md5(rrule), start, tz) WHERE duplicate_of IS NULL DO NOTHING"
            + " RETURNING " + ScheduleRow.COLUMNS;

    /**
     * The schedule registered before under a registration's natural key, with the fields of the registration's body it
     * holds otherwise, by their names in the body (none: the same body).
     */
    private static final NamedSql FIND_BY_NATURAL_KEY = NamedSql.of("SELECT " + ScheduleRow.COLUMNS
            + ", array_remove(ARRAY[CASE WHEN channel <> :channel::text THEN 'channel' END,"
            + " CASE WHEN data <> :data::jsonb THEN 'data' END,"
            + " CASE WHEN expires_after IS DISTINCT FROM :expires_after::text THEN 'expires_after' END,"
            + " CASE WHEN dst_gap <> :dst_gap::text OR dst_overlap <> :dst_overlap::text THEN 'dst' END,"
            + " CASE WHEN catch_up <> :catch_up::text THEN 'catch_up' END]::text[], NULL) AS differing"
            + " FROM schedules WHERE tenant = :tenant::text AND user_id = :user_id::text"
            + " AND template = :template::text AND md5(rrule) = md5(:rrule::text) AND rrule = :rrule::text"
            + " AND start = :start::timestamp AND tz = :tz::text AND duplicate_of IS NULL");

    /** The schedule, when of the tenant $2 (NULL: whatever its tenant). */
    private static final String FIND = "SELECT " + ScheduleRow.COLUMNS + " FROM schedules WHERE id = $1"
            + " AND ($2::text IS NULL OR tenant = $2)";

    private static final String LOCK = FIND + " FOR UPDATE";

    /** A user's schedules of the tenant $4, in index order. */
    static final String LIST = "SELECT " + ScheduleRow.COLUMNS + " FROM schedules WHERE user_id = $1 AND tenant = $4"
            + " AND id > $2 ORDER BY id LIMIT $3";

    /** A user's schedules of every tenant, for an operator. */
    static final String LIST_EVERY_TENANT = "SELECT " + ScheduleRow.COLUMNS + " FROM schedules WHERE user_id = $1"
            + " AND id > $2 ORDER BY id LIMIT $3";

    static final String COUNT_UNFINISHED = "SELECT count(*) FROM reminders WHERE schedule_id = $1"
            + " AND state IN " + sqlList(PENDING, HANDED_OFF, DELIVERING) + "";

    /** Occurrences still waiting for a time at or after :from, locked for a change or an end that cancels them. */
    private static final NamedSql PICK_WAITING = NamedSql.of("SELECT id FROM reminders WHERE schedule_id = :schedule_id"
            + " AND state = ANY(:states::text[]) AND fire_at >= :from ORDER BY id FOR UPDATE");

    private static final String SAVE_PROGRESS = "UPDATE schedules SET last_number = $2, cursor_position = $3,"
            + " cursor_wall_time = $4, anchor_position = $5, anchor_wall_time = $6,"
            + " skipped_count = skipped_count + $7, state = $8, updated_at = $9 WHERE id = $1"
            + " RETURNING " + ScheduleRow.COLUMNS;

    /** Active schedules with fewer unfinished occurrences than they keep, after the given id: the backstop's work. */
    static final String SHORT_OF_OCCURRENCES = "SELECT s.id FROM schedules s WHERE s.state = 'active' AND s.id > $1"
            + " AND (SELECT count(*) FROM reminders r WHERE r.schedule_id = s.id"
            + " AND r.state IN " + sqlList(PENDING, HANDED_OFF, DELIVERING) + ") < " + OccurrencePlan.KEPT_AHEAD
            + " ORDER BY s.id LIMIT $2";

    private final Pool pool;

    public ScheduleRepository(Pool pool) {
        this.pool = pool;
    }

    public <T> Uni<T> inTransaction(Function<SqlConnection, Uni<T>> work) {
        return pool.withTransaction(work);
    }

    /** The new schedule's row; empty when one with its natural key was registered before. */
    public Uni<Optional<ScheduleRow>> insert(SqlConnection connection, NewSchedule schedule, String tenant, String by,
            Instant now) {
        ScheduleDefinition definition = schedule.definition();
        Tuple values = Tuple.tuple().addString(schedule.userId()).addString(schedule.channel().wireName())
                .addString(schedule.template()).addJsonObject(new JsonObject(schedule.data()))
                .addString(schedule.expiresAfter() == null ? null : schedule.expiresAfter().toString())
                .addString(definition.tz()).addLocalDateTime(definition.start())
                .addString(definition.rule().toString()).addString(definition.dst().gap().wireName())
                .addString(definition.dst().overlap().wireName()).addString(schedule.catchUp().wireName())
                .addString(by).addOffsetDateTime(utc(now)).addString(tenant);
        return connection.preparedQuery(INSERT).execute(values).map(ScheduleRepository::scheduleIn);
    }

    /** A schedule registered before under the natural key of the given one, with how its body differs. */
    public record RegisteredBefore(ScheduleRow schedule, List<String> differing) {
    }

    public Uni<RegisteredBefore> findByNaturalKey(NewSchedule schedule, String tenant) {
        ScheduleDefinition definition = schedule.definition();
        return pool.preparedQuery(FIND_BY_NATURAL_KEY.sql()).execute(FIND_BY_NATURAL_KEY.bind("tenant", tenant,
                        "user_id", schedule.userId(), "template", schedule.template(),
                        "rrule", definition.rule().toString(), "start", definition.start(), "tz", definition.tz(),
                        "channel", schedule.channel().wireName(), "data", new JsonObject(schedule.data()),
                        "expires_after", schedule.expiresAfter() == null ? null : schedule.expiresAfter().toString(),
                        "dst_gap", definition.dst().gap().wireName(),
                        "dst_overlap", definition.dst().overlap().wireName(),
                        "catch_up", schedule.catchUp().wireName()))
                .map(rows -> {
                    if (rows.size() == 0) {
                        throw new IllegalStateException("the schedule registered before of " + schedule.userId() + "/"
                                + schedule.template() + " is gone");
                    }
                    Row row = rows.iterator().next();
                    return new RegisteredBefore(ScheduleRow.from(row), List.of(row.getArrayOfStrings("differing")));
                });
    }

    /** The schedule, when of the tenant (null: whatever its tenant). */
    public Uni<Optional<ScheduleRow>> find(long id, String tenant) {
        return pool.preparedQuery(FIND).execute(Tuple.of(id, tenant)).map(ScheduleRepository::scheduleIn);
    }

    /**
     * The schedule, when of the tenant (null: whatever its tenant), locked until the transaction ends: its changes and
     * top-ups take turns.
     */
    public Uni<Optional<ScheduleRow>> lock(SqlConnection connection, long id, String tenant) {
        return connection.preparedQuery(LOCK).execute(Tuple.of(id, tenant)).map(ScheduleRepository::scheduleIn);
    }

    /**
     * Up to {@code maxRows} of a user's schedules of the tenant (null: every tenant) with an id above {@code afterId},
     * in id order.
     */
    public Uni<List<ScheduleRow>> listForUser(String tenant, String userId, long afterId, int maxRows) {
        Uni<RowSet<Row>> found = tenant == null
                ? pool.preparedQuery(LIST_EVERY_TENANT).execute(Tuple.of(userId, afterId, maxRows))
                : pool.preparedQuery(LIST).execute(Tuple.of(userId, afterId, maxRows, tenant));
        return found.map(rows -> {
            List<ScheduleRow> schedules = new ArrayList<>();
            rows.forEach(row -> schedules.add(ScheduleRow.from(row)));
            return schedules;
        });
    }

    public Uni<Integer> countUnfinished(SqlConnection connection, long scheduleId) {
        return connection.preparedQuery(COUNT_UNFINISHED).execute(Tuple.of(scheduleId))
                .map(rows -> rows.iterator().next().getLong(0).intValue());
    }

    /** The schedule's occurrences in the given states whose time is at or after {@code from}, locked; their ids. */
    public Uni<List<Long>> pickWaiting(SqlConnection connection, long scheduleId, List<ReminderState> states,
            Instant from) {
        return connection.preparedQuery(PICK_WAITING.sql()).execute(PICK_WAITING.bind("schedule_id", scheduleId,
                        "states", states.stream().map(ReminderState::wireName).toArray(String[]::new), "from", utc(from)))
                .map(rows -> {
                    List<Long> ids = new ArrayList<>(rows.size());
                    rows.forEach(row -> ids.add(row.getLong("id")));
                    return ids;
                });
    }

    /** Writes where the expansion stands after a top-up or a rewind, with the state it leaves the schedule in. */
    public Uni<ScheduleRow> saveProgress(SqlConnection connection, ScheduleRow schedule, int lastNumber,
            ScheduleRow.Position cursor, ScheduleRow.Position anchor, long newlySkipped, ScheduleState state,
            Instant now) {
        return connection.preparedQuery(SAVE_PROGRESS)
                .execute(Tuple.tuple().addLong(schedule.id()).addInteger(lastNumber).addInteger(cursor.position())
                        .addLocalDateTime(cursor.wallTime()).addInteger(anchor.position())
                        .addLocalDateTime(anchor.wallTime()).addLong(newlySkipped).addString(state.wireName())
                        .addOffsetDateTime(utc(now)))
                .map(rows -> ScheduleRow.from(rows.iterator().next()));
    }

    /** Writes a changed schedule's fields as given, bumping its version. */
    public Uni<ScheduleRow> update(SqlConnection connection, ScheduleRow changed, Instant now) {
        ScheduleDefinition definition = changed.definition();
        return connection.preparedQuery("UPDATE schedules SET data = $2, expires_after = $3, tz = $4, start = $5,"
                        + " rrule = $6, dst_gap = $7, dst_overlap = $8, catch_up = $9, state = $10,"
                        + " cursor_position = $11, cursor_wall_time = $12, anchor_position = $13,"
                        + " anchor_wall_time = $14, version = version + 1, updated_at = $15 WHERE id = $1"
                        + " RETURNING " + ScheduleRow.COLUMNS)
                .execute(Tuple.tuple().addLong(changed.id()).addJsonObject(new JsonObject(changed.data()))
                        .addString(changed.expiresAfter() == null ? null : changed.expiresAfter().toString())
                        .addString(definition.tz()).addLocalDateTime(definition.start())
                        .addString(definition.rule().toString()).addString(definition.dst().gap().wireName())
                        .addString(definition.dst().overlap().wireName()).addString(changed.catchUp().wireName())
                        .addString(changed.state().wireName()).addInteger(changed.cursor().position())
                        .addLocalDateTime(changed.cursor().wallTime()).addInteger(changed.anchor().position())
                        .addLocalDateTime(changed.anchor().wallTime()).addOffsetDateTime(utc(now)))
                .map(rows -> ScheduleRow.from(rows.iterator().next()));
    }

    /** Ids of active schedules short of occurrences, after {@code afterId} in id order. */
    public Uni<List<Long>> shortOfOccurrences(long afterId, int limit) {
        return pool.preparedQuery(SHORT_OF_OCCURRENCES).execute(Tuple.of(afterId, limit)).map(rows -> {
            List<Long> ids = new ArrayList<>();
            rows.forEach(row -> ids.add(row.getLong(0)));
            return ids;
        });
    }

    private static Optional<ScheduleRow> scheduleIn(RowSet<Row> rows) {
        return rows.size() == 0 ? Optional.empty() : Optional.of(ScheduleRow.from(rows.iterator().next()));
    }
}
