package dev.tickler.delivery;

import static dev.tickler.time.SqlTimestamps.instant;
import static dev.tickler.time.SqlTimestamps.utc;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import jakarta.enterprise.context.ApplicationScoped;

import io.smallrye.mutiny.Uni;
import io.vertx.core.json.JsonObject;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.Tuple;

/**
 * Claims and settles deliveries. Each is one conditional UPDATE, the honest tool for "exactly one instance
 * wins", so this talks to the reactive SQL client directly instead of going through Hibernate. Claims and sends,
 * the two writes every push makes, are folded into one statement per batch while others are running
 * ({@link StatementBatcher}); the rarer settlements go one row at a time.
 */
@ApplicationScoped
public class ClaimRepository {

    private static final String CLAIMED_COLUMNS = "r.id, r.version, r.handoff, r.attempts, r.user_id, r.channel,"
            + " r.template, r.data, r.fire_at, r.tz, r.expires_at, r.lease_until";

    /** A pending row is claimable too: a push with delay 0 can overtake the request that published it. */
    private static final String CLAIM = "UPDATE reminders r SET state = 'delivering', lease_until = m.lease_until,"
            + " updated_at = m.now"
            + " FROM unnest($1::bigint[], $2::int[], $3::timestamptz[], $4::timestamptz[])"
            + " AS m(id, version, lease_until, now)"
            + " WHERE r.id = m.id AND r.version = m.version"
            + " AND (r.state IN ('pending', 'handed_off') OR (r.state = 'delivering' AND r.lease_until < m.now))"
            + " RETURNING " + CLAIMED_COLUMNS;

    private static final String MARK_SENT = "UPDATE reminders r SET state = 'sent', sent_at = m.now,"
            + " attempts = m.attempts, last_error = NULL, lease_until = NULL, updated_at = m.now"
            + " FROM unnest($1::bigint[], $2::int[], $3::timestamptz[], $4::timestamptz[], $5::int[])"
            + " AS m(id, version, held_lease, now, attempts)"
            + " WHERE r.id = m.id AND r.version = m.version AND r.state = 'delivering' AND r.lease_until = m.held_lease"
            + " RETURNING r.id";

    /** Every settling write names the claim it holds; a claim taken over by another instance changes nothing. */
    private static final String HELD = " WHERE id = $1 AND version = $2 AND state = 'delivering' AND lease_until = $3";

    private static final int MAX_BATCH = 100;
    private static final int MAX_STATEMENTS_IN_FLIGHT = 4;

    private record ClaimWrite(long id, int version, OffsetDateTime now, OffsetDateTime leaseUntil) {
    }

    private record SentWrite(ClaimedReminder claim, int attempts, OffsetDateTime now) {
    }

    private final Pool pool;
    private final StatementBatcher<ClaimWrite, Optional<ClaimedReminder>> claims;
    private final StatementBatcher<SentWrite, Boolean> sends;

    public ClaimRepository(Pool pool) {
        this.pool = pool;
        this.claims = new StatementBatcher<>(this::claimAll, ClaimWrite::id, MAX_BATCH, MAX_STATEMENTS_IN_FLIGHT);
        this.sends = new StatementBatcher<>(this::markAllSent, write -> write.claim().id(), MAX_BATCH,
                MAX_STATEMENTS_IN_FLIGHT);
    }

    public Uni<Optional<ClaimedReminder>> claim(long id, int version, Instant now, Instant leaseUntil) {
        return claims.submit(new ClaimWrite(id, version, utc(now), utc(leaseUntil)));
    }

    /** The row's state and version, to say why a message claimed nothing; empty when there is no such row. */
    public Uni<Optional<Row>> stateOf(long id) {
        return pool.preparedQuery("SELECT state, version FROM reminders WHERE id = $1")
                .execute(Tuple.of(id))
                .map(rows -> rows.size() == 0 ? Optional.empty() : Optional.of(rows.iterator().next()));
    }

    /**
     * Settles a successful send. Should its batch fail, the write is tried once more on its own, so that one bad
     * statement does not turn a whole batch of finished sends into sends that are made again.
     */
    public Uni<Boolean> markSent(ClaimedReminder claim, int attempts, Instant now) {
        SentWrite write = new SentWrite(claim, attempts, utc(now));
        return sends.submit(write)
                .onFailure().recoverWithUni(batchFailure -> markAllSent(List.of(write)).map(answers -> answers.get(0)));
    }

    public Uni<Boolean> markFailed(ClaimedReminder claim, int attempts, String error, Instant now) {
        return settle("UPDATE reminders SET state = 'failed', attempts = $5, last_error = $6, lease_until = NULL,"
                + " updated_at = $4" + HELD, claim, utc(now), attempts, error);
    }

    public Uni<Boolean> markExpired(ClaimedReminder claim, Instant now) {
        return settle("UPDATE reminders SET state = 'expired', lease_until = NULL, updated_at = $4" + HELD,
                claim, utc(now));
    }

    /** A failed attempt whose retry stays with this instance; the claim is kept. */
    public Uni<Boolean> recordAttempt(ClaimedReminder claim, int attempts, String error, Instant now) {
        return settle("UPDATE reminders SET attempts = $5, last_error = $6, updated_at = $4" + HELD,
                claim, utc(now), attempts, error);
    }

    /** The retry is on the queue under a new hand-off number; the row waits for it as handed_off. */
    public Uni<Boolean> handBack(ClaimedReminder claim, int attempts, String error, int handoff, String messageId,
            Instant now) {
        return settle("UPDATE reminders SET state = 'handed_off', attempts = $5, last_error = $6, handoff = $7,"
                        + " message_id = $8, lease_until = NULL, updated_at = $4" + HELD,
                claim, utc(now), attempts, error, handoff, messageId);
    }

    /**
     * The retry could not be put on the queue: the claim is kept but shortened to the retry time, so the
     * reconciler delivers it again once the lease has run out.
     */
    public Uni<Boolean> retryAfterLease(ClaimedReminder claim, int attempts, String error, Instant retryAt,
            Instant now) {
        return settle("UPDATE reminders SET attempts = $5, last_error = $6, lease_until = $7, updated_at = $4" + HELD,
                claim, utc(now), attempts, error, utc(retryAt));
    }

    /** Shutdown gave the claim up; the reminder is back on the queue under a new hand-off number. */
    public Uni<Boolean> release(ClaimedReminder claim, int handoff, String messageId, Instant now) {
        return settle("UPDATE reminders SET state = 'handed_off', handoff = $5, message_id = $6, lease_until = NULL,"
                + " updated_at = $4" + HELD, claim, utc(now), handoff, messageId);
    }

    /** Shutdown gave the claim up and the queue could not take it back: the reconciler will. */
    public Uni<Boolean> endLease(ClaimedReminder claim, Instant now) {
        return settle("UPDATE reminders SET lease_until = $4, updated_at = $4" + HELD, claim, utc(now));
    }

    private Uni<Boolean> settle(String sql, ClaimedReminder claim, Object... values) {
        Tuple parameters = Tuple.of(claim.id(), claim.version(), utc(claim.leaseUntil()));
        for (Object value : values) {
            parameters.addValue(value);
        }
        return pool.preparedQuery(sql).execute(parameters).map(RowSet::rowCount).map(count -> count == 1);
    }

    /** Rows are locked in id order, so that two batches that share rows cannot deadlock. */
    private Uni<List<Optional<ClaimedReminder>>> claimAll(List<ClaimWrite> writes) {
        List<ClaimWrite> byId = writes.stream().sorted(Comparator.comparingLong(ClaimWrite::id)).toList();
        Tuple arrays = Tuple.of(byId.stream().map(ClaimWrite::id).toArray(Long[]::new),
                byId.stream().map(ClaimWrite::version).toArray(Integer[]::new),
                byId.stream().map(ClaimWrite::leaseUntil).toArray(OffsetDateTime[]::new),
                byId.stream().map(ClaimWrite::now).toArray(OffsetDateTime[]::new));
        return pool.preparedQuery(CLAIM).execute(arrays).map(rows -> {
            Map<Long, ClaimedReminder> claimed = new HashMap<>();
            for (Row row : rows) {
                ClaimedReminder claim = toClaim(row);
                claimed.put(claim.id(), claim);
            }
            return writes.stream().map(write -> Optional.ofNullable(claimed.get(write.id()))).toList();
        });
    }

    private Uni<List<Boolean>> markAllSent(List<SentWrite> writes) {
        List<SentWrite> byId = writes.stream().sorted(Comparator.comparingLong(write -> write.claim().id())).toList();
        Tuple arrays = Tuple.of(byId.stream().map(write -> write.claim().id()).toArray(Long[]::new),
                byId.stream().map(write -> write.claim().version()).toArray(Integer[]::new),
                byId.stream().map(write -> utc(write.claim().leaseUntil())).toArray(OffsetDateTime[]::new),
                byId.stream().map(SentWrite::now).toArray(OffsetDateTime[]::new),
                byId.stream().map(SentWrite::attempts).toArray(Integer[]::new));
        return pool.preparedQuery(MARK_SENT).execute(arrays).map(rows -> {
            Set<Long> settled = new HashSet<>();
            for (Row row : rows) {
                settled.add(row.getLong(0));
            }
            return writes.stream().map(write -> settled.contains(write.claim().id())).toList();
        });
    }

    private static ClaimedReminder toClaim(Row row) {
        JsonObject data = row.getJsonObject("data");
        return new ClaimedReminder(row.getLong("id"), row.getInteger("version"), row.getInteger("handoff"),
                row.getInteger("attempts"), row.getString("user_id"), row.getString("channel"),
                row.getString("template"), data == null ? Map.of() : data.getMap(),
                instant(row, "fire_at"), row.getString("tz"), instant(row, "expires_at"), instant(row, "lease_until"));
    }
}
