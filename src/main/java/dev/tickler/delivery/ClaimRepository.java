package dev.tickler.delivery;

import static dev.tickler.db.SqlTimestamps.instant;
import static dev.tickler.db.SqlTimestamps.utc;
import static dev.tickler.ledger.ReminderState.DELIVERING;
import static dev.tickler.ledger.ReminderState.EXPIRED;
import static dev.tickler.ledger.ReminderState.FAILED;
import static dev.tickler.ledger.ReminderState.HANDED_OFF;
import static dev.tickler.ledger.ReminderState.PENDING;
import static dev.tickler.ledger.ReminderState.SENT;
import static dev.tickler.ledger.ReminderState.SKIPPED;
import static dev.tickler.ledger.ReminderState.sqlList;
import static dev.tickler.timeline.TimelineSql.recording;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

import jakarta.enterprise.context.ApplicationScoped;

import io.opentelemetry.context.Context;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.vertx.core.json.JsonObject;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.Tuple;

import dev.tickler.db.StatementBatcher;
import dev.tickler.db.UnnestedStatement;
import dev.tickler.ledger.Deferrals;
import dev.tickler.quiethours.QuietHours;
import dev.tickler.quiethours.QuietHoursRepository;
import dev.tickler.ledger.ReminderState;
import dev.tickler.db.WireNamed;
import dev.tickler.timeline.EventType;
import dev.tickler.timeline.TimelineSql.Event;

/**
 * Claims and settles deliveries. Each is a conditional UPDATE, the honest tool for "exactly one instance wins", so
 * this talks to the reactive SQL client directly instead of going through Hibernate. Claims and sends, the two writes
 * every push makes, go to Postgres in batches while others are running ({@link StatementBatcher}): the batch is one
 * set-based statement over the writes' parameters as arrays ({@link UnnestedStatement}), its events included, so
 * Postgres plans, starts and commits once per batch instead of once per row. The rarer settlements go one at a time.
 */
@ApplicationScoped
public class ClaimRepository {

    /** With the user's quiet hours, read in the same statement: no round trip of its own on the hot path. */
    private static final String CLAIMED_COLUMNS = "id, version, handoff, attempts, user_id, channel, template, "
            + "data, fire_at, " + Deferrals.DUE + " AS due_at, tz, expires_at, claimed_at, lease_until, schedule_id, "
            + QuietHoursRepository.OF_REMINDER;

    /**
     * Who may claim: a row waiting for its message, or one whose claim has run out by {@code now}. A pending row is
     * claimable too: a push with delay 0 can overtake the request that published it.
     */
    private static String claimable(String now) {
        return " AND (state IN " + sqlList(PENDING, HANDED_OFF)
                + " OR (state = " + DELIVERING.sql() + " AND lease_until < " + now + "))";
    }

    /**
     * The queue's claims, a batch in one statement ({@link UnnestedStatement}): per claim its id, version, new lease,
     * time, transport, the latest next send time it may claim (an early push claims nothing,
     * docs/contract.md#push-receiver) and the queue's delivery count when known. Public so that the acknowledge floor
     * benchmark times this very statement.
     */
    public static final String CLAIM = recording("UPDATE reminders SET state = " + DELIVERING.sql()
            + ", lease_until = claim.new_lease, claimed_at = claim.claim_time, updated_at = claim.claim_time"
            + " FROM unnest($1::bigint[], $2::int[], $3::timestamptz[], $4::timestamptz[], $5::text[],"
            + " $6::timestamptz[], $7::int[]) WITH ORDINALITY AS claim(claim_id, claim_version, new_lease, claim_time,"
            + " transport, due_by, delivery_count, " + UnnestedStatement.POSITION + ")"
            + " WHERE id = claim.claim_id AND version = claim.claim_version" + claimable("claim.claim_time")
            + " AND " + Deferrals.DUE + " <= claim.due_by"
            + " RETURNING claim." + UnnestedStatement.POSITION + ", claim.transport, claim.delivery_count, "
            + CLAIMED_COLUMNS,
            Event.of("changed.claimed_at", EventType.RECEIVED, "'transport'", "changed.transport",
                    "'delivery_count'", "changed.delivery_count"));

    /** The Java types of one claim's parameters, in the order of {@link #claim}. */
    public static final List<Class<?>> CLAIM_COLUMNS = List.of(Long.class, Integer.class, OffsetDateTime.class,
            OffsetDateTime.class, String.class, OffsetDateTime.class, Integer.class);

    /** The reconciler's claim: the same, counted, and only while the poison guard ($5) allows one more. */
    private static final String TAKE_OVER = recording("UPDATE reminders SET state = " + DELIVERING.sql()
            + ", lease_until = $3, claimed_at = $4, updated_at = $4, takeovers = takeovers + 1"
            + " WHERE id = $1 AND version = $2 AND takeovers < $5" + claimable("$4")
            + " RETURNING " + CLAIMED_COLUMNS,
            Event.of("$4", EventType.RECONCILED, "'reason'", "$6::text"));

    /** The poison guard: taken over $4 times without a settling write in between, so failed, not sent again. */
    private static final String GIVE_UP = recording("UPDATE reminders SET state = " + FAILED.sql()
            + ", last_error = $5, lease_until = NULL, updated_at = $3"
            + " WHERE id = $1 AND version = $2 AND takeovers >= $4" + claimable("$3") + " RETURNING id",
            Event.of("$3", EventType.FAILED, "'error'", "$5::text"));

    /**
     * Every settling write names the claim it holds (by when it was made: its lease is renewed, its start is not); a
     * claim taken over by another instance changes nothing.
     */
    private static final String HELD = " WHERE id = $1 AND version = $2 AND state = " + DELIVERING.sql()
            + " AND claimed_at = $3";

    /** The attempt event of a settling write: its number, status (as JSON text), latency, error, and when the answer came. */
    private static Event attempt(String number, String status, String latencyMillis, String error, String answeredAt) {
        return Event.of(answeredAt, EventType.ATTEMPT, "'attempt'", number, "'status'", "(" + status + ")::jsonb",
                "'latency_ms'", latencyMillis, "'error'", error);
    }

    /** The attempt event from a single settling write's parameters, starting at the given position ({@link Attempt#appendTo}). */
    private static Event attempt(int first) {
        return attempt("$" + first + "::int", "$" + (first + 1) + "::text", "$" + (first + 2) + "::bigint",
                "$" + (first + 3) + "::text", "$" + (first + 4));
    }

    /**
     * Successful sends, a batch in one statement: per send the claim it holds, when, then its attempt
     * ({@link Attempt#appendTo}).
     */
    static final String MARK_SENT = recording("UPDATE reminders SET state = " + SENT.sql()
            + ", sent_at = send.settled_at, attempts = send.attempt, last_error = NULL, lease_until = NULL,"
            + " updated_at = send.settled_at FROM unnest($1::bigint[], $2::int[], $3::timestamptz[],"
            + " $4::timestamptz[], $5::int[], $6::text[], $7::bigint[], $8::text[], $9::timestamptz[]) WITH ORDINALITY"
            + " AS send(send_id, send_version, held_claim, settled_at, attempt, status, latency_ms, error, answered_at, "
            + UnnestedStatement.POSITION + ")"
            + " WHERE id = send.send_id AND version = send.send_version"
            // the held claim in a form no index can serve, so that the only way in is the primary key: by this
            // condition the planner could walk the partial index of delivering rows, which under load holds
            // thousands its statistics do not know of (docs/delivery.md, "A planner trap")
            + " AND state IS NOT DISTINCT FROM " + DELIVERING.sql()
            + " AND claimed_at IS NOT DISTINCT FROM send.held_claim"
            + " RETURNING send." + UnnestedStatement.POSITION + ", id, send.settled_at,"
            + " send.attempt, send.status, send.latency_ms, send.error, send.answered_at",
            attempt("changed.attempt", "changed.status", "changed.latency_ms", "changed.error", "changed.answered_at"),
            Event.of("changed.settled_at", EventType.SENT));

    static final List<Class<?>> SEND_COLUMNS = List.of(Long.class, Integer.class, OffsetDateTime.class,
            OffsetDateTime.class, Integer.class, String.class, Long.class, String.class, OffsetDateTime.class);

    private static final String MARK_FAILED = recording("UPDATE reminders SET state = " + FAILED.sql()
            + ", attempts = $5, last_error = $10, lease_until = NULL, updated_at = $4" + HELD + " RETURNING id",
            attempt(5), Event.of("$4", EventType.FAILED, "'error'", "$10::text"));

    private static final String MARK_EXPIRED = recording("UPDATE reminders SET state = " + EXPIRED.sql()
            + ", lease_until = NULL, updated_at = $4" + HELD + " RETURNING id", Event.of("$4", EventType.EXPIRED));

    private static final String RECORD_ATTEMPT = recording("UPDATE reminders SET attempts = $5, last_error = $8,"
            + " takeovers = 0, updated_at = $4" + HELD + " RETURNING id", attempt(5));

    /**
     * A retry that waits longer than this instance holds it: handed_off under the next hand-off number ($10) with its
     * message ($11, or NULL when the queue did not take it), and its send time ($12), which the reconciler and the
     * early-push guard read: a long Retry-After is kept, not cut short by the reconcile grace.
     */
    private static final String HAND_BACK = recording("UPDATE reminders SET state = " + HANDED_OFF.sql()
            + ", attempts = $5, last_error = $8, handoff = $10, message_id = coalesce($11, message_id),"
            + " deferred_until = $12, lease_until = NULL, takeovers = 0, updated_at = $4" + HELD + " RETURNING id",
            attempt(5));

    /**
     * Quiet hours at send time: back on the queue for the window's end ($4 hand-off number, $5 its message id, or
     * NULL when the queue did not take it and the reconciler delivers it), same version and send key. $6 is when the
     * message comes back (the window's end, or the queue's ceiling when sooner); the event names the window's end.
     */
    private static final String DEFER = recording("UPDATE reminders SET state = " + HANDED_OFF.sql() + ", handoff = $4,"
            + " message_id = coalesce($5, message_id), deferred_until = $6, lease_until = NULL, takeovers = 0,"
            + " updated_at = $7" + HELD + " RETURNING id",
            Event.of("$7", EventType.DEFERRED, "'until'", "$8::text", "'reason'", "'quiet_hours'::text"));

    private static final String MARK_SKIPPED = recording("UPDATE reminders SET state = " + SKIPPED.sql() + ","
            + " lease_until = NULL, updated_at = $4" + HELD + " RETURNING id",
            Event.of("$4", EventType.SKIPPED, "'reason'", "'quiet_hours'::text"));

    private static final String MARK_EXPIRED_BECAUSE = recording("UPDATE reminders SET state = " + EXPIRED.sql() + ","
            + " lease_until = NULL, updated_at = $4" + HELD + " RETURNING id",
            Event.of("$4", EventType.EXPIRED, "'error'", "$5::text"));

    /**
     * Extends held claims' leases: only while the claim is the one this instance made (its claimed_at), never the
     * row's state or history, so waiting is never an attempt. Primary-key access only, as for the sends.
     */
    private static final String RENEW_LEASES = "UPDATE reminders SET lease_until = $3"
            + " FROM unnest($1::bigint[], $2::timestamptz[]) AS held(held_id, held_claim)"
            + " WHERE id = held.held_id AND state IS NOT DISTINCT FROM " + DELIVERING.sql()
            + " AND claimed_at IS NOT DISTINCT FROM held.held_claim RETURNING id";

    private static final int RENEWALS_PER_STATEMENT = 1_000;

    private static final int MAX_BATCH = 100;
    private static final int MAX_BATCHES_IN_FLIGHT = 4;

    private final Pool pool;
    private final StatementBatcher<Tuple, Optional<ClaimedReminder>> claims;
    private final Function<List<Tuple>, Uni<List<Boolean>>> markSent;
    private final StatementBatcher<Tuple, Boolean> sends;

    public ClaimRepository(Pool pool) {
        this.pool = pool;
        Comparator<Tuple> byRowId = Comparator.comparingLong(parameters -> parameters.getLong(0));
        this.claims = new StatementBatcher<>(UnnestedStatement.of(pool, CLAIM, CLAIM_COLUMNS,
                row -> Optional.of(toClaim(row)), Optional.empty()), byRowId, MAX_BATCH, MAX_BATCHES_IN_FLIGHT);
        this.markSent = UnnestedStatement.of(pool, MARK_SENT, SEND_COLUMNS, row -> true, false);
        this.sends = new StatementBatcher<>(markSent, byRowId, MAX_BATCH, MAX_BATCHES_IN_FLIGHT);
    }

    /**
     * The claim of a queue message that came by the given transport (push or poll), with its received event; empty
     * when nothing was claimable, or when the reminder is not due by {@code dueBy} (an early message).
     * {@code deliveryCount} is the queue's, null when it did not say.
     */
    public Uni<Optional<ClaimedReminder>> claim(long id, int version, Instant now, Instant leaseUntil, Instant dueBy,
            String transport, Integer deliveryCount) {
        return claims.submit(Tuple.of(id, version, utc(leaseUntil), utc(now), transport, utc(dueBy))
                .addValue(deliveryCount));
    }

    /**
     * The reconciler's claim, counted for the poison guard; empty once the reminder has had maxTakeovers. The reason
     * (push_overdue, lease_expired) goes to the timeline.
     */
    public Uni<Optional<ClaimedReminder>> takeOver(long id, int version, Instant now, Instant leaseUntil,
            int maxTakeovers, String reason) {
        return pool.preparedQuery(TAKE_OVER)
                .execute(Tuple.of(id, version, utc(leaseUntil), utc(now), maxTakeovers, reason))
                .map(ClaimRepository::claimIn);
    }

    /** Fails a reminder the reconciler has taken over maxTakeovers times; false when it moved on meanwhile. */
    public Uni<Boolean> giveUp(long id, int version, Instant now, int maxTakeovers, String error) {
        return pool.preparedQuery(GIVE_UP).execute(Tuple.of(id, version, utc(now), maxTakeovers, error))
                .map(rows -> rows.rowCount() == 1);
    }

    /** A row's state, version and next send time, to say why a message claimed nothing. */
    public record RowState(ReminderState state, int version, Instant dueAt) {
    }

    /** The row's state, version and next send time; empty when there is no such row. */
    public Uni<Optional<RowState>> stateOf(long id) {
        return pool.preparedQuery("SELECT state, version, " + Deferrals.DUE + " AS due_at FROM reminders WHERE id = $1")
                .execute(Tuple.of(id))
                .map(rows -> rows.size() == 0 ? Optional.empty() : Optional.of(rows.iterator().next())
                        .map(row -> new RowState(WireNamed.fromWireName(ReminderState.class, row.getString("state")),
                                row.getInteger("version"), instant(row, "due_at"))));
    }

    /**
     * Renews the leases of claims this instance holds, in one statement per {@value #RENEWALS_PER_STATEMENT}; answers
     * the ids whose claim is still this instance's (the others were taken over and must not be sent).
     */
    public Uni<Set<Long>> renewLeases(List<ClaimedReminder> held, Instant until) {
        Set<Long> renewed = new HashSet<>();
        return Multi.createFrom().iterable(partition(held, RENEWALS_PER_STATEMENT))
                .onItem().transformToUniAndConcatenate(part -> pool.preparedQuery(RENEW_LEASES).execute(Tuple.of(
                        part.stream().map(ClaimedReminder::id).toArray(Long[]::new),
                        part.stream().map(claim -> utc(claim.claimedAt())).toArray(OffsetDateTime[]::new),
                        utc(until))))
                .invoke(rows -> rows.forEach(row -> renewed.add(row.getLong("id"))))
                .collect().last()
                .replaceWith(renewed);
    }

    private static <T> List<List<T>> partition(List<T> all, int size) {
        List<List<T>> parts = new ArrayList<>();
        for (int from = 0; from < all.size(); from += size) {
            parts.add(all.subList(from, Math.min(all.size(), from + size)));
        }
        return parts;
    }

    /**
     * Settles a successful send. Should its batch fail, the write is tried once more on its own, so that one bad
     * statement does not turn a whole batch of finished sends into sends that are made again.
     */
    public Uni<Boolean> markSent(ClaimedReminder claim, Attempt attempt, Instant now) {
        Tuple parameters = attempt.appendTo(held(claim, utc(now)));
        return sends.submit(parameters).onFailure().recoverWithUni(batchFailure -> markSent.apply(List.of(parameters))
                .map(answers -> answers.get(0)));
    }

    /** Failed for good after this attempt; the error may say more than the attempt's own (how many were made). */
    public Uni<Boolean> markFailed(ClaimedReminder claim, Attempt attempt, String error, Instant now) {
        return settle(MARK_FAILED, attempt.appendTo(held(claim, utc(now))).addValue(error));
    }

    public Uni<Boolean> markExpired(ClaimedReminder claim, Instant now) {
        return settle(MARK_EXPIRED, held(claim, utc(now)));
    }

    /** A failed attempt whose retry stays with this instance; the claim is kept. */
    public Uni<Boolean> recordAttempt(ClaimedReminder claim, Attempt attempt, Instant now) {
        return settle(RECORD_ATTEMPT, attempt.appendTo(held(claim, utc(now))));
    }

    /**
     * The retry waits for {@code retryAt} as handed_off under a new hand-off number: on the queue under messageId, or,
     * when the queue did not take it (null), for the reconciler once retryAt and the grace have passed.
     */
    public Uni<Boolean> handBack(ClaimedReminder claim, Attempt attempt, int handoff, String messageId, Instant retryAt,
            Instant now) {
        return settle(HAND_BACK, attempt.appendTo(held(claim, utc(now))).addValue(handoff).addValue(messageId)
                .addValue(utc(retryAt)));
    }

    /**
     * Inside the user's quiet hours: back to handed_off, due back at {@code dueAt} (the window's end {@code until}, or
     * the queue's ceiling when sooner); messageId null when the queue refused.
     */
    public Uni<Boolean> defer(ClaimedReminder claim, int handoff, String messageId, Instant dueAt, Instant until,
            Instant now) {
        return settle(DEFER, claim, handoff, messageId, utc(dueAt), utc(now), until.toString());
    }

    /** Inside the user's quiet hours with the skip policy: never sent. */
    public Uni<Boolean> markSkipped(ClaimedReminder claim, Instant now) {
        return settle(MARK_SKIPPED, held(claim, utc(now)));
    }

    /** Expired for a reason the timeline names (quiet hours that outlast the expiry). */
    public Uni<Boolean> markExpired(ClaimedReminder claim, String error, Instant now) {
        return settle(MARK_EXPIRED_BECAUSE, held(claim, utc(now), error));
    }

    /** Shutdown gave the claim up; the reminder is back on the queue under a new hand-off number. */
    public Uni<Boolean> release(ClaimedReminder claim, int handoff, String messageId, Instant now) {
        return settle("UPDATE reminders SET state = " + HANDED_OFF.sql()
                + ", handoff = $5, message_id = $6, lease_until = NULL, takeovers = 0, updated_at = $4" + HELD,
                claim, utc(now), handoff, messageId);
    }

    /** Shutdown gave the claim up and the queue could not take it back: the reconciler will. */
    public Uni<Boolean> endLease(ClaimedReminder claim, Instant now) {
        return settle("UPDATE reminders SET lease_until = $4, takeovers = 0, updated_at = $4" + HELD, claim, utc(now));
    }

    private Uni<Boolean> settle(String sql, ClaimedReminder claim, Object... values) {
        return settle(sql, held(claim, values));
    }

    private Uni<Boolean> settle(String sql, Tuple parameters) {
        return pool.preparedQuery(sql).execute(parameters).map(RowSet::rowCount).map(count -> count == 1);
    }

    /** The parameters of a settling write: the claim it holds ($1–$3), then the write's own values. */
    private static Tuple held(ClaimedReminder claim, Object... values) {
        Tuple parameters = Tuple.of(claim.id(), claim.version(), utc(claim.claimedAt()));
        for (Object value : values) {
            parameters.addValue(value);
        }
        return parameters;
    }

    private static Optional<ClaimedReminder> claimIn(RowSet<Row> rows) {
        return rows.size() == 0 ? Optional.empty() : Optional.of(toClaim(rows.iterator().next()));
    }

    private static ClaimedReminder toClaim(Row row) {
        JsonObject data = row.getJsonObject("data");
        String quietHours = row.getString("quiet_hours");
        return new ClaimedReminder(row.getLong("id"), row.getInteger("version"), row.getInteger("handoff"),
                row.getInteger("attempts"), row.getString("user_id"), row.getString("channel"),
                row.getString("template"), data == null ? Map.of() : data.getMap(),
                instant(row, "fire_at"), instant(row, "due_at"), row.getString("tz"), instant(row, "expires_at"),
                instant(row, "claimed_at"), new Lease(instant(row, "lease_until")), row.getLong("schedule_id"), quietHours == null ? null : QuietHours.fromJson(quietHours),
                Context.root());
    }
}
