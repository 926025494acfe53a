package dev.tickler.callback;

import static dev.tickler.db.SqlTimestamps.instant;
import static dev.tickler.db.SqlTimestamps.utc;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.Tuple;

import dev.tickler.db.NamedSql;
import dev.tickler.db.StatementBatcher;
import dev.tickler.db.UnnestedStatement;
import dev.tickler.ledger.ReminderRow;

/**
 * The callback outbox's reads and writes after the ledger wrote an event (docs/api.md, "Delivery callbacks"): claims of
 * due events, each try's outcome, the tenant's list, redelivery, the age of the oldest undelivered event, and
 * retention. The reactive SQL client directly: claims are {@code FOR UPDATE SKIP LOCKED}, so that any number of
 * instances share the work, and outcomes are batched like the ledger's sends.
 */
@ApplicationScoped
public class CallbackRepository {

    /** The event's own columns, then the reminder as its transition left it, by the names {@link ReminderRow} reads. */
    private static final String CLAIMED_COLUMNS = "c.id AS event_id, c.type AS event_type, c.created_at AS event_at,"
            + " c.attempts AS event_attempts, c.tried_since AS event_tried_since, c.next_attempt_at AS held_until, "
            + ReminderRow.columnsOf("r");

    /**
     * Due events of the tenant still inside their retention, held by this instance until :held_until (which
     * another instance's claim waits for) and answered with the reminder they report. The due index serves it.
     */
    private static final NamedSql CLAIM = NamedSql.of("WITH claimed AS (UPDATE callback_events e"
            + " SET next_attempt_at = :held_until FROM (SELECT id FROM callback_events WHERE delivered_at IS NULL"
            + " AND next_attempt_at <= :now AND tried_since > :tried_after AND tenant = :tenant"
            + " ORDER BY next_attempt_at LIMIT :limit FOR UPDATE SKIP LOCKED) due WHERE e.id = due.id"
            + " RETURNING e.*) SELECT " + CLAIMED_COLUMNS + " FROM claimed c"
            + " CROSS JOIN LATERAL jsonb_populate_record(NULL::reminders, c.reminder) AS r");

    /**
     * Tries' outcomes, a batch in one statement: each only while the event is still held by the claim that tried it (a
     * redelivery meanwhile asked for a try of its own).
     */
    private static final String RECORD = "UPDATE callback_events e SET attempts = e.attempts + 1,"
            + " last_status = try.status, last_error = try.error, delivered_at = try.delivered_at,"
            + " next_attempt_at = try.next_attempt_at FROM " + UnnestedStatement.unnest("$1::bigint[]",
                    "$2::timestamptz[]", "$3::int[]", "$4::text[]", "$5::timestamptz[]", "$6::timestamptz[]")
            + " WITH ORDINALITY AS try(try_id, held_until, status,"
            + " error, delivered_at, next_attempt_at, " + UnnestedStatement.POSITION + ")"
            + " WHERE e.id = try.try_id AND e.next_attempt_at = try.held_until AND e.delivered_at IS NULL"
            + " RETURNING try." + UnnestedStatement.POSITION;

    private static final List<Class<?>> RECORD_COLUMNS = List.of(Long.class, OffsetDateTime.class, Integer.class,
            String.class, OffsetDateTime.class, OffsetDateTime.class);

    private static final String LISTED = "id, tenant, reminder_id, type, created_at, attempts, next_attempt_at,"
            + " delivered_at, last_status, last_error";

    /** The tenant's events after a position, in id order (:tenant null: every tenant, for an operator key). */
    private static final NamedSql PAGE = NamedSql.of("SELECT " + LISTED + " FROM callback_events"
            + " WHERE (:tenant::text IS NULL OR tenant = :tenant) AND id > :after AND tried_since > :tried_after"
            + " ORDER BY id LIMIT :limit");

    /** Sends events again as new: due now, their tries counted from naught, their retention from now. */
    private static final String AGAIN = " SET delivered_at = NULL, next_attempt_at = :now, attempts = 0,"
            + " tried_since = :now, last_status = NULL, last_error = NULL";

    private static final NamedSql REDELIVER_IDS = NamedSql.of("UPDATE callback_events" + AGAIN
            + " WHERE id = ANY(:ids::bigint[]) AND (:tenant::text IS NULL OR tenant = :tenant)"
            + " AND tried_since > :tried_after");

    private static final NamedSql REDELIVER_AFTER = NamedSql.of("WITH chosen AS (SELECT id FROM callback_events"
            + " WHERE (:tenant::text IS NULL OR tenant = :tenant) AND id > :after AND tried_since > :tried_after"
            + " ORDER BY id LIMIT :limit) UPDATE callback_events e" + AGAIN
            + " FROM chosen WHERE e.id = chosen.id");

    /** The oldest undelivered event still being tried, of one tenant, through its partial index. */
    private static final NamedSql OLDEST_UNDELIVERED = NamedSql.of("SELECT min(tried_since) FROM callback_events"
            + " WHERE tenant = :tenant AND delivered_at IS NULL AND next_attempt_at IS NOT NULL"
            + " AND tried_since > :tried_after");

    /** Events past their retention, oldest first, a bounded batch in one short transaction. */
    private static final NamedSql DELETE_EXPIRED = NamedSql.of("DELETE FROM callback_events WHERE id IN (SELECT id"
            + " FROM callback_events WHERE tried_since <= :tried_after ORDER BY tried_since LIMIT :limit"
            + " FOR UPDATE SKIP LOCKED)");

    private static final int MAX_BATCH = 100;
    private static final int MAX_BATCHES_IN_FLIGHT = 4;

    private final Pool pool;
    private final StatementBatcher<Tuple, Boolean> outcomes;

    public CallbackRepository(Pool pool) {
        this.pool = pool;
        this.outcomes = new StatementBatcher<>(UnnestedStatement.of(pool, RECORD, RECORD_COLUMNS, row -> true, false),
                Comparator.comparingLong(write -> write.getLong(0)), MAX_BATCH, MAX_BATCHES_IN_FLIGHT);
    }

    /** An event a dispatcher holds until {@code heldUntil}, with the reminder it reports. */
    record Claimed(long id, String type, Instant at, int attempts, Instant triedSince, Instant heldUntil,
            ReminderRow reminder) {
    }

    /** Up to {@code limit} due events of the tenant, held until {@code heldUntil}. */
    Uni<List<Claimed>> claimDue(String tenant, Instant now, Instant triedAfter, Instant heldUntil, int limit) {
        return pool.preparedQuery(CLAIM.sql()).execute(CLAIM.bind("held_until", utc(heldUntil), "now", utc(now),
                        "tried_after", utc(triedAfter), "tenant", tenant, "limit", limit))
                .map(rows -> {
                    List<Claimed> claimed = new ArrayList<>(rows.size());
                    for (Row row : rows) {
                        claimed.add(new Claimed(row.getLong("event_id"), row.getString("event_type"),
                                instant(row, "event_at"), row.getInteger("event_attempts"),
                                instant(row, "event_tried_since"), instant(row, "held_until"), ReminderRow.from(row)));
                    }
                    return claimed;
                });
    }

    /**
     * A try's outcome on the event it held: delivered at {@code deliveredAt}, or due again at {@code nextAttemptAt}
     * (both null: given up). False when the hold had been taken over meanwhile.
     */
    Uni<Boolean> record(Claimed event, Integer status, String error, Instant deliveredAt, Instant nextAttemptAt) {
        return outcomes.submit(Tuple.of(event.id(), utc(event.heldUntil()), status, error,
                deliveredAt == null ? null : utc(deliveredAt), nextAttemptAt == null ? null : utc(nextAttemptAt)));
    }

    /** One listed event: its try state as the list shows it. */
    public record Listed(long id, String tenant, long reminderId, String type, Instant createdAt, int attempts,
            Instant nextAttemptAt, Instant deliveredAt, Integer lastStatus, String lastError) {
    }

    Uni<List<Listed>> page(String tenant, long afterId, Instant triedAfter, int limit) {
        return pool.preparedQuery(PAGE.sql()).execute(PAGE.bind("tenant", tenant, "after", afterId,
                        "tried_after", utc(triedAfter), "limit", limit))
                .map(rows -> {
                    List<Listed> page = new ArrayList<>(rows.size());
                    for (Row row : rows) {
                        page.add(new Listed(row.getLong("id"), row.getString("tenant"), row.getLong("reminder_id"),
                                row.getString("type"), instant(row, "created_at"), row.getInteger("attempts"),
                                instant(row, "next_attempt_at"), instant(row, "delivered_at"),
                                row.getInteger("last_status"), row.getString("last_error")));
                    }
                    return page;
                });
    }

    /** The given events of the tenant (null: any) still kept, due again now; answers how many. */
    Uni<Integer> redeliver(List<Long> ids, String tenant, Instant now, Instant triedAfter) {
        return pool.preparedQuery(REDELIVER_IDS.sql()).execute(REDELIVER_IDS.bind("ids", ids.toArray(Long[]::new),
                "tenant", tenant, "now", utc(now), "tried_after", utc(triedAfter))).map(RowSet::rowCount);
    }

    /** Up to {@code limit} events of the tenant (null: any) after the id, due again now; answers how many. */
    Uni<Integer> redeliverAfter(long afterId, String tenant, Instant now, Instant triedAfter, int limit) {
        return pool.preparedQuery(REDELIVER_AFTER.sql()).execute(REDELIVER_AFTER.bind("after", afterId,
                "tenant", tenant, "now", utc(now), "tried_after", utc(triedAfter), "limit", limit))
                .map(RowSet::rowCount);
    }

    /** When the tenant's oldest undelivered event still being tried was written or redelivered; empty when none. */
    Uni<Optional<Instant>> oldestUndelivered(String tenant, Instant triedAfter) {
        return pool.preparedQuery(OLDEST_UNDELIVERED.sql())
                .execute(OLDEST_UNDELIVERED.bind("tenant", tenant, "tried_after", utc(triedAfter)))
                .map(rows -> Optional.ofNullable(instant(rows.iterator().next())));
    }

    /** Deletes one batch of events written or redelivered at or before {@code triedAfter}; answers how many. */
    public Uni<Integer> deleteExpired(Instant triedAfter, int limit) {
        return pool.preparedQuery(DELETE_EXPIRED.sql())
                .execute(DELETE_EXPIRED.bind("tried_after", utc(triedAfter), "limit", limit))
                .map(RowSet::rowCount);
    }
}
