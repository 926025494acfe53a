package dev.tickler.ledger;

import static dev.tickler.db.SqlTimestamps.instant;
import static dev.tickler.db.SqlTimestamps.utc;
import static dev.tickler.db.StatementBatcher.configuredLinger;
import static dev.tickler.ledger.ReminderState.CANCELLED;
import static dev.tickler.ledger.ReminderState.DELIVERING;
import static dev.tickler.ledger.ReminderState.EXPIRED;
import static dev.tickler.ledger.ReminderState.FAILED;
import static dev.tickler.ledger.ReminderState.HANDED_OFF;
import static dev.tickler.ledger.ReminderState.PENDING;
import static dev.tickler.ledger.ReminderState.SENT;
import static dev.tickler.ledger.ReminderState.SKIPPED;
import static dev.tickler.ledger.ReminderState.sqlList;
import static dev.tickler.timeline.TimelineSql.recording;
import static dev.tickler.timeline.TimelineSql.recordingAnswering;

import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

import jakarta.enterprise.context.ApplicationScoped;

import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;

import dev.tickler.config.TicklerConfig;
import dev.tickler.db.NamedSql;
import dev.tickler.db.StatementBatcher;
import dev.tickler.db.UnnestedStatement;
import dev.tickler.db.WireNamed;
import dev.tickler.quiethours.QuietHoursRepository;
import dev.tickler.security.TenantCallbacks;
import dev.tickler.time.Pause;
import dev.tickler.timeline.EventType;
import dev.tickler.timeline.TimelineEvent;
import dev.tickler.timeline.TimelineSql.Event;

/**
 * Every write to {@code reminders}, one method per transition of a reminder's life (package-info has the state machine),
 * each with its timeline event written by the same statement ({@link dev.tickler.timeline.TimelineSql#recording}).
 * Every conditional write names what it holds: the version and hand-off number a hand-off read, the claim a settlement
 * holds ({@link HeldClaim}), the states a change applies to; a write that matched nothing answers so, and the caller
 * decides what that means. The hot writes (registrations, hand-off marks, claims, sends) go to Postgres in batches
 * while others are running ({@link StatementBatcher}), one round trip and one commit per batch, and each lingers a
 * moment for company while none of its batches runs: registrations, their marks and claims briefly, as their callers
 * wait (tickler.api.registration-linger, tickler.delivery.claim-linger), a successful send's settlement, which nobody
 * waits on, longer, and for company even while others run (tickler.delivery.settle-linger).
 */
@ApplicationScoped
public class ReminderLedger {

    // --- registration -----------------------------------------------------------------------------------------------

    /**
     * The natural key, within a tenant, names one-shot reminders without a key only; a schedule's occurrences are named
     * by their number, a keyed reminder by its key.
     */
    private static final String NATURAL_KEY_TAKEN =
            " ON CONFLICT (tenant, user_id, template, fire_at) WHERE schedule_id IS NULL AND key IS NULL DO NOTHING";

    /** A key names one live reminder of its tenant (the partial unique index of migration V13). */
    private static final String LIVE_KEY = "key IS NOT NULL AND state IN " + ReminderState.liveSqlList();

    private static final String KEY_TAKEN = " ON CONFLICT (tenant, key) WHERE " + LIVE_KEY + " DO NOTHING";

    /** The registered event names the key that registered it, and the reminder's own key and tags when it has them. */
    private static final Event REGISTERED_BY = Event.of("changed.created_at", EventType.REGISTERED, "'by'",
            ":by::text", "'key'", "changed.key", "'tags'", "NULLIF(changed.tags, '{}')");

    /** The rows of the caller's tenant, or of every tenant when :tenant is NULL (an operator, or the system). */
    private static final String OF_TENANT = "(:tenant::text IS NULL OR tenant = :tenant)";

    /**
     * A reminder registered past its fire_at is due from its registration (docs/delivery.md): its lateness is the
     * caller's, not dispatch lag.
     */
    private static String dueFromCreation(String fireAt) {
        return dueFromCreation(fireAt, ":now::timestamptz");
    }

    private static String dueFromCreation(String fireAt, String now) {
        return "CASE WHEN " + fireAt + " < " + now + " THEN " + now + " END";
    }

    /** A new row with its user's quiet hours, which its hand-off needs next ({@link Created}). */
    private static final String CREATED_COLUMNS = ReminderRow.COLUMNS + ", " + QuietHoursRepository.OF_REMINDER;

    /** A reminder without a key; trace_context is the request's traceparent or null. */
    static final NamedSql REGISTER = NamedSql.of(recording("INSERT INTO reminders (user_id, channel, template, fire_at,"
            + " tz, data, expires_at, created_at, updated_at, urgent, trace_context, deferred_until, tenant, tags) VALUES"
            + " (:user_id, :channel, :template, :fire_at, :tz, :data, :expires_at, :now, :now, :urgent, :trace_context, "
            + dueFromCreation(":fire_at::timestamptz") + ", :tenant, :tags::varchar[])" + NATURAL_KEY_TAKEN + " RETURNING "
            + CREATED_COLUMNS, REGISTERED_BY));

    /**
     * The fields of a registration's body that the row {@code r} holds otherwise, by their names in the body (an
     * empty array: the same body, so registering it again changes nothing); {@code value} gives the SQL of a body
     * value by its column's name. Tags compare as sets; data as JSON values (key order and spacing do not count);
     * expires_after as the window after fire_at.
     */
    private static String differingFields(String r, Function<String, String> value) {
        return "array_remove(ARRAY["
                + differs("user_id", r + "user_id <> " + value.apply("user_id"))
                + ", " + differs("channel", r + "channel <> " + value.apply("channel"))
                + ", " + differs("template", r + "template <> " + value.apply("template"))
                + ", " + differs("fire_at", r + "fire_at <> " + value.apply("fire_at"))
                + ", " + differs("tz", r + "tz <> " + value.apply("tz"))
                + ", " + differs("data", r + "data <> " + value.apply("data"))
                + ", " + differs("expires_after", "(" + r + "expires_at - " + r + "fire_at) IS DISTINCT FROM ("
                        + value.apply("expires_at") + " - " + value.apply("fire_at") + ")")
                + ", " + differs("urgent", r + "urgent <> " + value.apply("urgent"))
                + ", " + differs("tags", "NOT (" + r + "tags @> " + value.apply("tags") + " AND " + r + "tags <@ "
                        + value.apply("tags") + ")")
                + "]::text[], NULL)";
    }

    private static String differs(String field, String condition) {
        return "CASE WHEN " + condition + " THEN '" + field + "' END";
    }

    /** The body's values as a single registration's statement names them. */
    private static final Map<String, String> NAMED_BODY = Map.of("user_id", ":user_id::text", "channel",
            ":channel::text", "template", ":template::text", "fire_at", ":fire_at::timestamptz", "tz", ":tz::text",
            "data", ":data::jsonb", "expires_at", ":expires_at::timestamptz", "urgent", ":urgent::boolean", "tags",
            ":tags::varchar[]");

    /** How the row holds other values than the body the statement names. */
    private static final String DIFFERING = differingFields("", NAMED_BODY::get);

    /**
     * A keyed reminder (docs/contract.md#keyed-reminders-and-cancel-by-filter): inserted unless its key is live in its
     * tenant, which the unique index decides, so that racing registrations of one key make one reminder. Answers the
     * new row (created), or else the live one as it was when the statement began, with whether its body is the same;
     * nothing when the live one was registered by a statement that began later (the caller tries again).
     */
    private static final NamedSql REGISTER_KEYED = NamedSql.of(recordingAnswering("INSERT INTO reminders (user_id,"
            + " channel, template, fire_at, tz, data, expires_at, created_at, updated_at, urgent, trace_context,"
            + " deferred_until, tenant, key, tags) VALUES (:user_id::text, :channel::text, :template::text,"
            + " :fire_at::timestamptz, :tz::text, :data::jsonb, :expires_at::timestamptz, :now, :now, :urgent::boolean,"
            + " :trace_context, " + dueFromCreation(":fire_at::timestamptz") + ", :tenant::text, :key::text,"
            + " :tags::varchar[])" + KEY_TAKEN + " RETURNING " + ReminderRow.COLUMNS,
            "SELECT " + ReminderRow.COLUMNS + ", true AS created, ARRAY[]::text[] AS differing FROM changed"
            + " UNION ALL SELECT " + ReminderRow.COLUMNS + ", false, " + DIFFERING + " FROM reminders"
            + " WHERE tenant = :tenant::text"
            + " AND key = :key::text AND state IN " + ReminderState.liveSqlList()
            + " AND NOT EXISTS (SELECT 1 FROM changed)", REGISTERED_BY));

    /** The key's live reminder, locked until the transaction ends, with how its body differs from the given one. */
    private static final NamedSql LOCK_LIVE_BY_KEY = NamedSql.of("SELECT " + ReminderRow.COLUMNS
            + ", false AS created, " + DIFFERING + " AS differing FROM reminders WHERE tenant = :tenant::text"
            + " AND key = :key::text AND state IN " + ReminderState.liveSqlList() + " FOR UPDATE");

    /** The key's live reminder, else the one of its reminders that finished last. */
    private static final NamedSql FIND_BY_KEY = NamedSql.of("SELECT " + ReminderRow.COLUMNS + " FROM reminders"
            + " WHERE tenant = :tenant AND key = :key AND key IS NOT NULL"
            + " ORDER BY state IN " + ReminderState.liveSqlList() + " DESC, updated_at DESC, id DESC LIMIT 1");

    /**
     * Many registrations without keys of one tenant and caller in one statement, in the order given; a natural key
     * taken, or repeated, inserts nothing. Each row has its own registration time and trace context (registrations that
     * lingered together came in different requests), and its tags as a JSON array (an array of arrays would not
     * unnest row by row). The statement answers the rows it inserted, not which registration each came from: the
     * caller finds that by natural key, as a lookup of each row in the arrays would have the server plan the
     * statement afresh on every call.
     */
    private static final NamedSql REGISTER_ALL = NamedSql.of(recording("INSERT INTO reminders (user_id, channel,"
            + " template, fire_at, tz, data, expires_at, created_at, updated_at, urgent, trace_context, deferred_until,"
            + " tenant, tags) SELECT u, c, t, f, z, d::jsonb, e, w, w, g, x, " + dueFromCreation("f", "w")
            + ", :tenant, ARRAY(SELECT tag FROM jsonb_array_elements_text(tg::jsonb) WITH ORDINALITY AS each(tag, at)"
            + " ORDER BY at)"
            + " FROM " + UnnestedStatement.unnest(":user_ids::text[]", ":channels::text[]", ":templates::text[]",
                    ":fire_ats::timestamptz[]", ":zones::text[]", ":data::text[]", ":expires_ats::timestamptz[]",
                    ":urgent::boolean[]", ":tags::text[]", ":nows::timestamptz[]", ":trace_contexts::text[]")
            + " WITH ORDINALITY AS i(u, c, t, f, z, d, e, g, tg, w, x, n) ORDER BY n" + NATURAL_KEY_TAKEN
            + " RETURNING " + CREATED_COLUMNS, REGISTERED_BY));

    private static final NamedSql FIND = NamedSql.of("SELECT " + ReminderRow.COLUMNS + " FROM reminders WHERE id = :id"
            + " AND " + OF_TENANT);

    /** The row of a registration's natural key, with how its body differs from the registration's. */
    private static final NamedSql FIND_BY_NATURAL_KEY = NamedSql.of("SELECT " + ReminderRow.COLUMNS
            + ", false AS created, " + DIFFERING + " AS differing FROM reminders WHERE tenant = :tenant::text"
            + " AND user_id = :user_id::text AND template = :template::text AND fire_at = :fire_at::timestamptz"
            + " AND schedule_id IS NULL AND key IS NULL");

    /**
     * The rows of many registrations' natural keys, each found through the unique index, with how its body differs
     * from the registration's, by the registration's position; bodies come as a batch registration's arrays.
     */
    private static final NamedSql FIND_ALL_BY_NATURAL_KEY = NamedSql.of("SELECT k.n AS item, "
            + ReminderRow.columnsOf("r") + ", false AS created, " + differingFields("r.", column -> switch (column) {
                case "data" -> "k.data::jsonb";
                case "tags" -> "ARRAY(SELECT jsonb_array_elements_text(k.tags::jsonb))::varchar[]";
                default -> "k." + column;
            }) + " AS differing FROM reminders r JOIN unnest(:user_ids::text[], :channels::text[], :templates::text[],"
            + " :fire_ats::timestamptz[], :zones::text[], :data::text[], :expires_ats::timestamptz[],"
            + " :urgent::boolean[], :tags::text[]) WITH ORDINALITY AS k(user_id, channel, template, fire_at, tz, data,"
            + " expires_at, urgent, tags, n) ON r.user_id = k.user_id AND r.template = k.template"
            + " AND r.fire_at = k.fire_at WHERE r.tenant = :tenant AND r.schedule_id IS NULL AND r.key IS NULL");

    /** Every occurrence of one top-up in one statement; one a concurrent top-up created already is left alone. */
    private static final String CREATE_OCCURRENCES_CHANGE = "INSERT INTO reminders (user_id, channel, template,"
            + " fire_at, tz, data, expires_at, state, schedule_id, occurrence, created_at, updated_at, deferred_until,"
            + " tenant) SELECT :user_id::text, :channel::text, :template::text, o.f, :tz::text, :data::jsonb, o.e,"
            + " :state::text, :schedule_id::bigint, o.n, :now, :now, " + dueFromCreation("o.f") + ", :tenant::text"
            + " FROM unnest(:fire_ats::timestamptz[], :expires_ats::timestamptz[], :numbers::int[]) AS o(f, e, n)"
            + " ON CONFLICT (schedule_id, occurrence) WHERE schedule_id IS NOT NULL DO NOTHING";

    private static final NamedSql CREATE_OCCURRENCES = NamedSql.of(recording(CREATE_OCCURRENCES_CHANGE
            + " RETURNING " + ReminderRow.COLUMNS, REGISTERED_BY));

    /** Occurrences a schedule's catch-up skips are born finished, so each is reported as one that ends skipped. */
    private static NamedSql createSkippedOccurrences(CallbackOutbox outbox) {
        return NamedSql.of(outbox.finishing(CREATE_OCCURRENCES_CHANGE, ReminderRow.COLUMNS, REGISTERED_BY,
                Event.of(":now", EventType.SKIPPED, "'reason'", "'catch_up'")));
    }

    // --- hand-off ---------------------------------------------------------------------------------------------------

    /**
     * Published reminders marked handed off with their message ids, a batch in one statement: per mark the row's id,
     * version and hand-off number as the hand-off read them, the message id, the time, and the published event (when
     * the message went to the queue, and its details), written by the same statement. Unless something moved the row
     * on meanwhile: a push that claimed it (delay 0), a cancel, a racing hand-off; the caller writes that one's event.
     */
    private static final String HAND_OFF = recording("UPDATE reminders SET state = " + HANDED_OFF.sql()
            + ", message_id = mark.new_message_id, updated_at = mark.marked_at"
            + " FROM " + UnnestedStatement.unnest("$1::bigint[]", "$2::int[]", "$3::int[]", "$4::text[]",
                    "$5::timestamptz[]", "$6::timestamptz[]", "$7::text[]")
            + " WITH ORDINALITY AS mark(mark_id, mark_version, mark_handoff, new_message_id, marked_at,"
            + " published_at, published_detail, " + UnnestedStatement.POSITION
            + ") WHERE id = mark.mark_id AND version = mark.mark_version AND handoff = mark.mark_handoff"
            + " AND state = " + PENDING.sql() + " RETURNING mark." + UnnestedStatement.POSITION
            + ", mark.published_at, mark.published_detail, " + ReminderRow.COLUMNS,
            new Event("changed.published_at", EventType.PUBLISHED, "changed.published_detail"));

    private static final List<Class<?>> HAND_OFF_COLUMNS = List.of(Long.class, Integer.class, Integer.class,
            String.class, OffsetDateTime.class, OffsetDateTime.class, String.class);

    /** The row as a hand-off read it: still pending at the version and hand-off number it was decided on. */
    private static final String AS_READ_BY_HAND_OFF = " WHERE id = :id AND version = :version AND handoff = :handoff"
            + " AND state = " + PENDING.sql();

    private static final String AS_HANDED_OFF = AS_READ_BY_HAND_OFF + " RETURNING " + ReminderRow.COLUMNS;

    /**
     * Quiet hours at hand-off: published for the window's end, due back at :due_at (the window's end :until, or the
     * queue's ceiling when sooner). The event's time is when the decision was made, before the publish it caused.
     */
    private static final NamedSql DEFER_AT_HAND_OFF = NamedSql.of(recording("UPDATE reminders SET state = "
            + HANDED_OFF.sql() + ", message_id = :message_id, deferred_until = :due_at, updated_at = :now"
            + AS_HANDED_OFF, Event.of(":now", EventType.DEFERRED, "'until'", ":until::text", "'reason'",
                    "'quiet_hours'::text")));

    private static NamedSql skipAtHandOff(CallbackOutbox outbox) {
        return NamedSql.of(outbox.finishing("UPDATE reminders SET state = " + SKIPPED.sql() + ", updated_at = :now"
                + AS_READ_BY_HAND_OFF, ReminderRow.COLUMNS,
                Event.of(":now", EventType.SKIPPED, "'reason'", "'quiet_hours'::text")));
    }

    private static NamedSql expireAtHandOff(CallbackOutbox outbox) {
        return NamedSql.of(outbox.finishing("UPDATE reminders SET state = " + EXPIRED.sql() + ", updated_at = :now"
                + AS_READ_BY_HAND_OFF, ReminderRow.COLUMNS, Event.of(":now", EventType.EXPIRED, "'error'", ":error::text")));
    }

    // --- claims -----------------------------------------------------------------------------------------------------

    /** With the user's quiet hours, read in the same statement: no round trip of its own on the hot path. */
    private static final String CLAIMED_COLUMNS = "id, tenant, version, handoff, attempts, user_id, channel, template, data,"
            + " fire_at, " + Deferrals.DUE + " AS due_at, tz, expires_at, claimed_at, lease_until, schedule_id, "
            + QuietHoursRepository.OF_REMINDER;

    /**
     * Who may claim: a row waiting for its message, or one whose claim has run out by {@code now}. A pending row is
     * claimable too: a push with delay 0 can overtake the request that published it.
     */
    private static String claimable(String now) {
        return " AND (state IN " + sqlList(PENDING, HANDED_OFF) + " OR (state = " + DELIVERING.sql()
                + " AND lease_until < " + now + "))";
    }

    /**
     * The queue's claims, a batch in one statement ({@link UnnestedStatement}): per claim its id, version, new lease,
     * time, transport, the latest next send time it may claim (an early message claims nothing,
     * docs/contract.md#push-receiver) and the queue's delivery count when known. Public so that the acknowledge floor
     * benchmark times this very statement.
     */
    public static final String CLAIM = recording("UPDATE reminders SET state = " + DELIVERING.sql()
            + ", lease_until = claim.new_lease, claimed_at = claim.claim_time, updated_at = claim.claim_time"
            + " FROM " + UnnestedStatement.unnest("$1::bigint[]", "$2::int[]", "$3::timestamptz[]",
                    "$4::timestamptz[]", "$5::text[]", "$6::timestamptz[]", "$7::int[]")
            + " WITH ORDINALITY AS claim(claim_id, claim_version, new_lease, claim_time, transport,"
            + " due_by, delivery_count, " + UnnestedStatement.POSITION + ")"
            + " WHERE id = claim.claim_id AND version = claim.claim_version" + claimable("claim.claim_time")
            + " AND " + Deferrals.DUE + " <= claim.due_by"
            + " RETURNING claim." + UnnestedStatement.POSITION + ", claim.transport, claim.delivery_count, "
            + CLAIMED_COLUMNS,
            Event.of("changed.claimed_at", EventType.RECEIVED, "'transport'", "changed.transport",
                    "'delivery_count'", "changed.delivery_count"));

    /** The Java types of one claim's parameters, in the order of {@link #claim}. */
    public static final List<Class<?>> CLAIM_COLUMNS = List.of(Long.class, Integer.class, OffsetDateTime.class,
            OffsetDateTime.class, String.class, OffsetDateTime.class, Integer.class);

    /** The reconciler's claim: the same, counted, and only while the poison guard allows one more. */
    private static final NamedSql TAKE_OVER = NamedSql.of(recording("UPDATE reminders SET state = " + DELIVERING.sql()
            + ", lease_until = :lease_until, claimed_at = :now, updated_at = :now, takeovers = takeovers + 1"
            + " WHERE id = :id AND version = :version AND takeovers < :max_takeovers" + claimable(":now")
            + " RETURNING " + CLAIMED_COLUMNS, Event.of(":now", EventType.RECONCILED, "'reason'", ":reason::text")));

    /** The poison guard: taken over :max_takeovers times without a settling write in between, so failed, not sent again. */
    private static NamedSql giveUp(CallbackOutbox outbox) {
        return NamedSql.of(outbox.finishing("UPDATE reminders SET state = " + FAILED.sql() + ", last_error = :error,"
                + " lease_until = NULL, updated_at = :now WHERE id = :id AND version = :version"
                + " AND takeovers >= :max_takeovers" + claimable(":now"), "id",
                Event.of(":now", EventType.FAILED, "'error'", ":error::text")));
    }

    private static final NamedSql STATE_OF = NamedSql.of("SELECT state, version, " + Deferrals.DUE + " AS due_at"
            + " FROM reminders WHERE id = :id");

    /**
     * Extends held claims' leases: only while the claim is the one this instance made (its claimed_at), never the row's
     * state or history, so waiting is never an attempt. Primary-key access only, as for the sends.
     */
    private static final NamedSql RENEW_LEASES = NamedSql.of("UPDATE reminders SET lease_until = :lease_until"
            + " FROM unnest(:ids::bigint[], :claimed_ats::timestamptz[]) AS held(held_id, held_claim)"
            + " WHERE id = held.held_id AND state IS NOT DISTINCT FROM " + DELIVERING.sql()
            + " AND claimed_at IS NOT DISTINCT FROM held.held_claim RETURNING id");

    private static final int RENEWALS_PER_STATEMENT = 1_000;

    // --- settlement -------------------------------------------------------------------------------------------------

    /**
     * Every settling write names the claim it holds (by when it was made: its lease is renewed, its start is not); a
     * claim taken over by another instance changes nothing.
     */
    private static final String HELD = " WHERE id = :id AND version = :version AND state = " + DELIVERING.sql()
            + " AND claimed_at = :claimed_at";

    /** The attempt event of a settling write: its number, status (as JSON text), latency, error, and when the answer came. */
    private static Event attempt(String number, String status, String latencyMillis, String error, String answeredAt) {
        return Event.of(answeredAt, EventType.ATTEMPT, "'attempt'", number, "'status'", "(" + status + ")::jsonb",
                "'latency_ms'", latencyMillis, "'error'", error);
    }

    private static final Event ATTEMPT = attempt(":attempt::int", ":status::text", ":latency_ms::bigint",
            ":attempt_error::text", ":answered_at");

    /**
     * Successful sends, a batch in one statement: per send the claim it holds, when, then its attempt. Public, for the
     * tests that read its plan.
     */
    public static String settleSent(CallbackOutbox outbox) {
        return outbox.finishing("UPDATE reminders SET state = " + SENT.sql()
                + ", sent_at = send.settled_at, attempts = send.attempt, last_error = NULL, lease_until = NULL,"
                + " updated_at = send.settled_at FROM " + UnnestedStatement.unnest("$1::bigint[]", "$2::int[]",
                        "$3::timestamptz[]", "$4::timestamptz[]", "$5::int[]", "$6::text[]", "$7::bigint[]",
                        "$8::text[]", "$9::timestamptz[]")
                + " WITH ORDINALITY AS send(send_id, send_version, held_claim, settled_at, attempt, status,"
                + " latency_ms, error, answered_at, " + UnnestedStatement.POSITION + ")"
                + " WHERE id = send.send_id AND version = send.send_version"
                // the held claim in a form no index can serve, so that the only way in is the primary key: by this
                // condition the planner could walk the partial index of delivering rows, which under load holds
                // thousands its statistics do not know of (docs/delivery.md, "A planner trap")
                + " AND state IS NOT DISTINCT FROM " + DELIVERING.sql()
                + " AND claimed_at IS NOT DISTINCT FROM send.held_claim",
                "send." + UnnestedStatement.POSITION + ", id, send.settled_at, send.attempt, send.status,"
                        + " send.latency_ms, send.error, send.answered_at",
                attempt("changed.attempt", "changed.status", "changed.latency_ms", "changed.error",
                        "changed.answered_at"),
                Event.of("changed.settled_at", EventType.SENT));
    }

    public static final List<Class<?>> SEND_COLUMNS = List.of(Long.class, Integer.class, OffsetDateTime.class,
            OffsetDateTime.class, Integer.class, String.class, Long.class, String.class, OffsetDateTime.class);

    private static NamedSql settleFailed(CallbackOutbox outbox) {
        return NamedSql.of(outbox.finishing("UPDATE reminders SET state = " + FAILED.sql() + ", attempts = :attempt,"
                + " last_error = :error, lease_until = NULL, updated_at = :now" + HELD, "id", ATTEMPT,
                Event.of(":now", EventType.FAILED, "'error'", ":error::text")));
    }

    /** Expired while held: past its expiry when an attempt was due, or quiet hours that outlast it (:error). */
    private static NamedSql expireHeld(CallbackOutbox outbox) {
        return NamedSql.of(outbox.finishing("UPDATE reminders SET state = " + EXPIRED.sql() + ", lease_until = NULL,"
                + " updated_at = :now" + HELD, "id", Event.of(":now", EventType.EXPIRED, "'error'", ":error::text")));
    }

    /** A failed attempt whose retry stays with this instance: the claim is kept, the poison guard's count cleared. */
    private static final NamedSql RECORD_ATTEMPT = NamedSql.of(recording("UPDATE reminders SET attempts = :attempt,"
            + " last_error = :attempt_error, deferred_until = :retry_at, takeovers = 0, updated_at = :now" + HELD
            + " RETURNING id", ATTEMPT));

    /**
     * A retry that waits longer than this instance holds it: handed_off under the next hand-off number with its message
     * (or the old one when the queue did not take it) and its send time, which the reconciler and the early-push guard
     * read: a long Retry-After is kept, not cut short by the reconcile grace.
     */
    private static final NamedSql HAND_BACK = NamedSql.of(recording("UPDATE reminders SET state = " + HANDED_OFF.sql()
            + ", attempts = :attempt, last_error = :attempt_error, handoff = :handoff,"
            + " message_id = coalesce(:message_id, message_id), deferred_until = :retry_at, lease_until = NULL,"
            + " takeovers = 0, updated_at = :now" + HELD + " RETURNING id", ATTEMPT));

    /**
     * Quiet hours at send time: back to handed_off under the next hand-off number with its message (or the old one when
     * the queue did not take it), due back at :due_at; the event names the window's end.
     */
    private static final NamedSql DEFER_HELD = NamedSql.of(recording("UPDATE reminders SET state = " + HANDED_OFF.sql()
            + ", handoff = :handoff, message_id = coalesce(:message_id, message_id), deferred_until = :due_at,"
            + " lease_until = NULL, takeovers = 0, updated_at = :now" + HELD + " RETURNING id",
            Event.of(":now", EventType.DEFERRED, "'until'", ":until::text", "'reason'", "'quiet_hours'::text")));

    private static NamedSql skipHeld(CallbackOutbox outbox) {
        return NamedSql.of(outbox.finishing("UPDATE reminders SET state = " + SKIPPED.sql() + ", lease_until = NULL,"
                + " updated_at = :now" + HELD, "id", Event.of(":now", EventType.SKIPPED, "'reason'",
                        "'quiet_hours'::text")));
    }

    /** Shutdown gave the claim up: back on the queue under the next hand-off number. */
    private static final NamedSql RELEASE = NamedSql.of("UPDATE reminders SET state = " + HANDED_OFF.sql()
            + ", handoff = :handoff, message_id = :message_id, lease_until = NULL, takeovers = 0, updated_at = :now"
            + HELD);

    /** Shutdown gave the claim up and the queue could not take it back: the lease ends now, for the reconciler. */
    private static final NamedSql END_LEASE = NamedSql.of("UPDATE reminders SET lease_until = :now, takeovers = 0,"
            + " updated_at = :now" + HELD);

    // --- changes through the API ------------------------------------------------------------------------------------

    /**
     * PATCH: a new version with new timing or data, pending until handed off again; only while the row is still at the
     * version the change was checked against and in a state a change applies to.
     */
    private static final NamedSql RESCHEDULE = NamedSql.of(recording("UPDATE reminders SET fire_at = :fire_at,"
            + " tz = :tz, expires_at = :expires_at, data = :data, version = version + 1, handoff = 0, attempts = 0,"
            + " last_error = NULL, message_id = NULL, lease_until = NULL, takeovers = 0, state = " + PENDING.sql()
            + ", deferred_until = " + dueFromCreation(":fire_at::timestamptz") + ", updated_at = :now"
            + " WHERE id = :id AND version = :version AND state IN " + sqlList(PENDING, HANDED_OFF, FAILED)
            + " AND " + OF_TENANT + " RETURNING " + ReminderRow.COLUMNS, Event.of(":now", EventType.RESCHEDULED, "'from'", ":from::text",
                    "'to'", ":to::text", "'version'", "changed.version", "'by'", ":by::text")));

    /**
     * A PUT by key of a different body (docs/contract.md#keyed-reminders-and-cancel-by-filter): every field replaced, as a
     * PATCH of them all, under a new version, pending until handed off again; only while the row is still at the
     * version read and in a state a change applies to.
     */
    private static final NamedSql REPLACE = NamedSql.of(recording("UPDATE reminders SET user_id = :user_id,"
            + " channel = :channel, template = :template, fire_at = :fire_at, tz = :tz, data = :data,"
            + " expires_at = :expires_at, urgent = :urgent, tags = :tags::varchar[], version = version + 1, handoff = 0,"
            + " attempts = 0, last_error = NULL, message_id = NULL, lease_until = NULL, takeovers = 0, state = "
            + PENDING.sql() + ", deferred_until = " + dueFromCreation(":fire_at::timestamptz") + ", updated_at = :now"
            + " WHERE id = :id AND version = :version AND state IN " + sqlList(PENDING, HANDED_OFF, FAILED)
            + " RETURNING " + ReminderRow.COLUMNS, Event.of(":now", EventType.RESCHEDULED, "'from'", ":from::text",
                    "'to'", ":to::text", "'version'", "changed.version", "'by'", ":by::text", "'key'", "changed.key")));

    /** One user's reminders that a cancel by filter selects, in the given states (docs/contract.md#keyed-reminders-and-cancel-by-filter). */
    private static final String MATCHING = "tenant = :tenant AND user_id = :user_id"
            + " AND (:template::text IS NULL OR template = :template::text)"
            + " AND (:tag::text IS NULL OR " + NameConditions.hasTag(":tag") + ")"
            + " AND (:key_pattern::text IS NULL OR " + NameConditions.keyStartsWith(":key_pattern") + ")"
            + " AND state = ANY(:states::text[])";

    /**
     * A bounded batch of the matching reminders cancelled in one statement, each with its event; locked in id order, as
     * every batched write takes its rows, and checked again once locked. Answers each one's schedule id (null for a
     * one-shot reminder), whose schedule makes room for its next occurrence.
     */
    private static final NamedSql CANCEL_MATCHING = NamedSql.of(recording("UPDATE reminders SET state = "
            + CANCELLED.sql() + ", version = version + 1, lease_until = NULL, updated_at = :now WHERE id IN (SELECT id"
            + " FROM reminders WHERE " + MATCHING + " ORDER BY id LIMIT :limit FOR UPDATE) RETURNING id, schedule_id",
            Event.of(":now", EventType.CANCELLED, "'by'", ":by::text")));

    private static final NamedSql COUNT_MATCHING = NamedSql.of("SELECT count(*) FROM reminders WHERE " + MATCHING);

    /**
     * Cancels the given reminders that are in one of the given states, each with a new version so any message still on
     * the queue is stale: DELETE of one reminder, a bulk cancel, a schedule's change or end.
     */
    private static final NamedSql CANCEL = NamedSql.of(recording("UPDATE reminders SET state = " + CANCELLED.sql()
            + ", version = version + 1, lease_until = NULL, updated_at = :now"
            + " WHERE id = ANY(:ids::bigint[]) AND state = ANY(:states::text[]) AND " + OF_TENANT
            + " RETURNING " + ReminderRow.COLUMNS,
            Event.of(":now", EventType.CANCELLED, "'by'", ":by::text")));

    /**
     * Failed reminders go round again, one or in bulk: same version (same send key), next hand-off number, attempts
     * reset, pending until handed off; due from now, so the wait since its fire_at is not dispatch lag.
     */
    private static final NamedSql REDRIVE = NamedSql.of(recording("UPDATE reminders SET state = " + PENDING.sql()
            + ", handoff = handoff + 1, attempts = 0, takeovers = 0, last_error = NULL, message_id = NULL,"
            + " deferred_until = :now, updated_at = :now WHERE id = ANY(:ids::bigint[]) AND state = " + FAILED.sql()
            + " AND " + OF_TENANT + " RETURNING " + ReminderRow.COLUMNS,
            Event.of(":now", EventType.REDRIVEN, "'by'", ":by::text")));

    // --- the sweep --------------------------------------------------------------------------------------------------

    /** Waiting reminders whose delivery window closed: expired, never sent late. (Public, as every statement plan tests read.) */
    public static NamedSql expireWaiting(CallbackOutbox outbox) {
        return NamedSql.of(outbox.finishing("UPDATE reminders SET state = " + EXPIRED.sql() + ", updated_at = :now"
                + " WHERE expires_at IS NOT NULL AND expires_at < :now AND state IN " + sqlList(PENDING, HANDED_OFF),
                "id, schedule_id", Event.of(":now", EventType.EXPIRED)));
    }

    /**
     * Finished reminders past their retention, oldest change first, a bounded batch in one short transaction. The
     * batch size is written into the statement, not bound: retention runs on the statement's generic plan
     * ({@link #RETENTION_SETTINGS}), and a generic plan that knows it takes a batch reads the finished index and the
     * primary keys, while one for a limit it cannot see expected a tenth of the rows and joined by scanning both
     * tables.
     */
    public static NamedSql deleteFinishedPastRetention(int batch) {
        return deletePastRetention("state IN " + sqlList(SENT, CANCELLED, EXPIRED, SKIPPED), batch);
    }

    public static NamedSql deleteFailedPastRetention(int batch) {
        return deletePastRetention("state = " + FAILED.sql(), batch);
    }

    /** A reminder's timeline goes with it (docs/contract.md#retention); answers one row per reminder deleted. */
    private static NamedSql deletePastRetention(String states, int batch) {
        return NamedSql.of("WITH gone AS (DELETE FROM reminders WHERE id IN (SELECT id FROM reminders WHERE " + states
                + " AND updated_at < :before ORDER BY updated_at LIMIT " + batch + " FOR UPDATE SKIP LOCKED)"
                + " RETURNING id), events AS (DELETE FROM reminder_events e USING gone WHERE e.reminder_id = gone.id)"
                + " SELECT id FROM gone");
    }

    /**
     * How retention's transactions run: not durable (below), and on the deletes' generic plan, which reads the finished
     * index in order as a batch's own plan does. Left to choose, PostgreSQL planned every batch afresh, since a plan for
     * the batch's cut-off looked cheaper than one for any cut-off; at ten million rows that planning cost more than the
     * delete itself (docs/scaling.md).
     */
    private static final String RETENTION_SETTINGS = "SELECT set_config('synchronous_commit', 'off', true),"
            + " set_config('plan_cache_mode', 'force_generic_plan', true)";

    private static final int MAX_BATCH = 100;
    private static final int MAX_BATCHES_IN_FLIGHT = 4;

    /**
     * How many successful sends' settlements a batch waits for while others run (within the settle linger): the sends
     * of a second's due reminders end close together, and without it the first settlement lingered while the rest of
     * the burst left one by one beside it (docs/scaling.md, "Settlements wait for company while others run"). At
     * saturation that many gather in a few milliseconds.
     */
    private static final int SETTLEMENTS_SHARED_WHILE_RUNNING = 32;

    private final Pool pool;
    private final NamedSql createSkippedOccurrences;
    private final NamedSql skipAtHandOff;
    private final NamedSql expireAtHandOff;
    private final NamedSql giveUp;
    private final NamedSql settleFailed;
    private final NamedSql expireHeld;
    private final NamedSql skipHeld;
    private final NamedSql expireWaiting;
    private final Pause pause;
    private final Duration registrationLinger;
    private final StatementBatcher<Tuple, Optional<ReminderRow>> handOffs;
    private final Function<List<Tuple>, Uni<List<Optional<ReminderRow>>>> handOff;
    private final StatementBatcher<Tuple, Optional<Claim>> claims;
    private final Function<List<Tuple>, Uni<List<Boolean>>> settleSent;
    private final StatementBatcher<Tuple, Boolean> sends;

    public ReminderLedger(Pool pool, TenantCallbacks callbacks, TicklerConfig config, Pause pause) {
        this.pool = pool;
        // every terminal write, and nothing else, also writes the callback outbox (docs/api.md, "Delivery callbacks")
        CallbackOutbox outbox = CallbackOutbox.of(callbacks.tenants());
        this.createSkippedOccurrences = createSkippedOccurrences(outbox);
        this.skipAtHandOff = skipAtHandOff(outbox);
        this.expireAtHandOff = expireAtHandOff(outbox);
        this.giveUp = giveUp(outbox);
        this.settleFailed = settleFailed(outbox);
        this.expireHeld = expireHeld(outbox);
        this.skipHeld = skipHeld(outbox);
        this.expireWaiting = expireWaiting(outbox);
        Comparator<Tuple> byRowId = Comparator.comparingLong(parameters -> parameters.getLong(0));
        this.pause = pause;
        this.registrationLinger = configuredLinger("tickler.api.registration-linger", config.api().registrationLinger(),
                TicklerConfig.DEFAULT_LINGER);
        this.handOff = UnnestedStatement.of(pool, HAND_OFF, HAND_OFF_COLUMNS, row -> Optional.of(ReminderRow.from(row)),
                Optional.empty());
        this.handOffs = new StatementBatcher<>(handOff, byRowId, MAX_BATCH, MAX_BATCHES_IN_FLIGHT, registrationLinger,
                System::nanoTime, pause::after);
        this.claims = new StatementBatcher<>(UnnestedStatement.of(pool, CLAIM, CLAIM_COLUMNS,
                row -> Optional.of(claimOf(row)), Optional.empty()), byRowId, MAX_BATCH, MAX_BATCHES_IN_FLIGHT,
                configuredLinger("tickler.delivery.claim-linger", config.delivery().claimLinger(),
                        TicklerConfig.DEFAULT_LINGER),
                System::nanoTime, pause::after);
        this.settleSent = UnnestedStatement.of(pool, settleSent(outbox), SEND_COLUMNS, row -> true, false);
        this.sends = new StatementBatcher<>(settleSent, byRowId, MAX_BATCH, MAX_BATCHES_IN_FLIGHT,
                configuredLinger("tickler.delivery.settle-linger", config.delivery().settleLinger(),
                        TicklerConfig.DEFAULT_SETTLE_LINGER),
                SETTLEMENTS_SHARED_WHILE_RUNNING, System::nanoTime, pause::after);
    }

    public <T> Uni<T> inTransaction(Function<SqlConnection, Uni<T>> work) {
        return pool.withTransaction(work);
    }

    // --- registration -----------------------------------------------------------------------------------------------

    /**
     * A batcher of registrations without a key that linger together ({@code tickler.api.registration-linger}): each
     * batch is registered by {@link #registerLingering} and whatever {@code statement} does with it next (the
     * hand-off), so the batch's hand-off marks share one statement as its inserts did.
     */
    public <W, R> StatementBatcher<W, R> registrationBatcher(Function<List<W>, Uni<List<R>>> statement,
            Function<W, Registering> registering) {
        return new StatementBatcher<>(statement, Comparator.comparing(registering, REGISTERING_ORDER), MAX_BATCH,
                MAX_BATCHES_IN_FLIGHT, registrationLinger, System::nanoTime, pause::after);
    }

    /**
     * pending, registered on its own: the new reminder's row, or empty when (user_id, template, fire_at) is already
     * registered. A registration whose batch failed is tried once more this way, so one bad write does not fail its
     * neighbours.
     */
    public Uni<Optional<Created>> register(Registering registering) {
        return pool.preparedQuery(REGISTER.sql()).execute(registering.values()).map(ReminderLedger::createdIn);
    }

    /**
     * A registration without a key, with who registers it, when, and in what trace: traceContext is the registering
     * request's traceparent, null when tracing is off.
     */
    public record Registering(NewReminder reminder, String tenant, String by, OffsetDateTime now,
            String traceContext) {

        public static Registering of(NewReminder reminder, String tenant, String by, Instant now,
                String traceContext) {
            return new Registering(reminder, tenant, by, utc(now), traceContext);
        }

        Caller caller() {
            return new Caller(tenant, by);
        }

        /** The parameters of the registration alone. */
        Tuple values() {
            return REGISTER.bind(withBody(reminder, "tenant", tenant, "now", now, "trace_context", traceContext,
                    "by", by));
        }
    }

    /** Who registers: the rows of one statement share their tenant and the caller their registered events name. */
    private record Caller(String tenant, String by) {
    }

    /**
     * Registrations that lingered together, pipelined on one connection: each caller's in one statement over unnested
     * arrays, one that registers alone as a plain insert (cheaper for one row), and the callers' statements in one
     * transaction, so that a failed batch wrote nothing and each of its registrations, tried again alone, is created by
     * its own insert. Each is answered with its new row, or nothing when its natural key was taken, by an earlier one
     * of the batch too.
     */
    public Uni<List<Optional<Created>>> registerLingering(List<Registering> batch) {
        Map<Caller, List<Integer>> byCaller = new LinkedHashMap<>();
        for (int i = 0; i < batch.size(); i++) {
            byCaller.computeIfAbsent(batch.get(i).caller(), caller -> new ArrayList<>()).add(i);
        }
        List<List<Integer>> groups = List.copyOf(byCaller.values());
        Function<SqlConnection, Uni<List<List<Optional<Created>>>>> register = connection -> Uni.join()
                .all(groups.stream().map(group -> registerTogether(connection, group.stream().map(batch::get).toList()))
                        .toList())
                .andFailFast();
        return (groups.size() == 1 ? pool.withConnection(register) : pool.withTransaction(register))
                .map(answeredByGroup -> {
                    List<Optional<Created>> answers = new ArrayList<>(batch.size());
                    answers.addAll(Collections.nCopies(batch.size(), Optional.empty()));
                    for (int g = 0; g < groups.size(); g++) {
                        List<Integer> positions = groups.get(g);
                        for (int i = 0; i < positions.size(); i++) {
                            answers.set(positions.get(i), answeredByGroup.get(g).get(i));
                        }
                    }
                    return answers;
                });
    }

    private static Uni<List<Optional<Created>>> registerTogether(SqlConnection connection,
            List<Registering> together) {
        if (together.size() == 1) {
            return connection.preparedQuery(REGISTER.sql()).execute(together.get(0).values())
                    .map(rows -> List.of(createdIn(rows)));
        }
        return connection.preparedQuery(REGISTER_ALL.sql()).execute(registerAllValues(together))
                .map(inserted -> createdRows(together.stream().map(Registering::reminder).toList(), inserted));
    }

    /**
     * Registers many at once (docs/contract.md#batch-registration): answers, in the order given, each reminder's row
     * and whether this call created it. A key registered before, or repeated in the list, answers the existing row;
     * within the list the first copy creates it.
     */
    public Uni<List<Registration>> registerAll(List<NewReminder> reminders, String tenant, String by, Instant now,
            String traceContext) {
        // in natural-key order, as concurrent batches take the unique index's locks; the first copy first
        List<Registering> ordered = reminders.stream().sorted(NATURAL_KEY_ORDER)
                .map(reminder -> new Registering(reminder, tenant, by, utc(now), traceContext)).toList();
        return pool.preparedQuery(REGISTER_ALL.sql()).execute(registerAllValues(ordered)).chain(inserted -> {
            List<Optional<Created>> created = createdRows(reminders, inserted);
            // every item but the first copy of a created key meets the stored row
            Registration[] registrations = new Registration[reminders.size()];
            List<Integer> repeated = new ArrayList<>();
            for (int i = 0; i < reminders.size(); i++) {
                if (created.get(i).isPresent()) {
                    registrations[i] = new Registration(created.get(i).get().reminder(), true);
                } else {
                    repeated.add(i);
                }
            }
            return findAllByNaturalKey(tenant, repeated.stream().map(reminders::get).toList()).map(found -> {
                for (int i = 0; i < repeated.size(); i++) {
                    registrations[repeated.get(i)] = found.get(i);
                }
                return List.of(registrations);
            });
        });
    }

    /**
     * A schedule's occurrences become reminders: pending, or skipped by its catch-up (with their skipped events). Answers
     * the rows created; an occurrence a concurrent top-up created already is left alone.
     */
    public Uni<List<ReminderRow>> createOccurrences(SqlClient client, Occurrences occurrences, boolean skipped, String by,
            Instant now) {
        if (occurrences.size() == 0) {
            return Uni.createFrom().item(List.of());
        }
        NamedSql sql = skipped ? createSkippedOccurrences : CREATE_OCCURRENCES;
        return client.preparedQuery(sql.sql()).execute(sql.bind("tenant", occurrences.tenant(),
                        "user_id", occurrences.userId(),
                        "channel", occurrences.channel().wireName(), "template", occurrences.template(),
                        "tz", occurrences.tz(), "data", new JsonObject(occurrences.data()),
                        "state", (skipped ? SKIPPED : PENDING).wireName(), "schedule_id", occurrences.scheduleId(),
                        "now", utc(now), "by", by,
                        "fire_ats", occurrences.fireAts().stream().map(at -> utc(at)).toArray(OffsetDateTime[]::new),
                        "expires_ats", occurrences.expiresAts().stream().map(at -> at == null ? null : utc(at))
                                .toArray(OffsetDateTime[]::new),
                        "numbers", occurrences.numbers().toArray(Integer[]::new)))
                .map(ReminderLedger::rows);
    }

    /** The reminder, when the tenant may see it (null: whatever its tenant). */
    public Uni<Optional<ReminderRow>> find(long id, String tenant) {
        return pool.preparedQuery(FIND.sql()).execute(FIND.bind("id", id, "tenant", tenant)).map(ReminderLedger::rowIn);
    }

    /** The reminder registered before under the registration's natural key, with how its body differs. */
    public Uni<Registration> findByNaturalKey(String tenant, NewReminder reminder) {
        return pool.preparedQuery(FIND_BY_NATURAL_KEY.sql()).execute(FIND_BY_NATURAL_KEY.bind(withBody(reminder,
                        "tenant", tenant)))
                .map(rows -> registrationIn(rows).orElseThrow(() -> gone(reminder)));
    }

    // --- keyed reminders ---------------------------------------------------------------------------------------------

    /**
     * pending, registered under its key, unless the key is live in the tenant: answers the new row, or else the live
     * one; empty when a registration of the key that began later holds it (try again, it is then seen).
     */
    public Uni<Optional<Registration>> registerKeyed(NewReminder reminder, String tenant, String by, Instant now,
            String traceContext) {
        return pool.preparedQuery(REGISTER_KEYED.sql()).execute(REGISTER_KEYED.bind(withBody(reminder, "tenant", tenant,
                        "key", reminder.key(), "now", utc(now), "trace_context", traceContext, "by", by)))
                .map(ReminderLedger::registrationIn);
    }

    /** The key's live reminder, locked until the connection's transaction ends, compared with the given body. */
    public Uni<Optional<Registration>> lockLive(SqlConnection connection, String tenant, NewReminder reminder) {
        return connection.preparedQuery(LOCK_LIVE_BY_KEY.sql()).execute(LOCK_LIVE_BY_KEY.bind(withBody(reminder,
                        "tenant", tenant, "key", reminder.key())))
                .map(ReminderLedger::registrationIn);
    }

    /** {@link #replace(SqlClient, ReminderRow, NewReminder, String, Instant)} in a transaction of its own. */
    public Uni<Optional<ReminderRow>> replace(ReminderRow row, NewReminder reminder, String by, Instant now) {
        return replace(pool, row, reminder, by, now);
    }

    /**
     * pending, handed_off or failed → pending under a new version with every field of the body, if the row is still at
     * {@code version}; empty otherwise.
     */
    public Uni<Optional<ReminderRow>> replace(SqlClient client, ReminderRow row, NewReminder reminder, String by,
            Instant now) {
        return client.preparedQuery(REPLACE.sql()).execute(REPLACE.bind(withBody(reminder, "id", row.id(),
                        "version", row.version(), "now", utc(now), "from", row.fireAt().toString(),
                        "to", reminder.fireAt().toString(), "by", by)))
                .map(ReminderLedger::rowIn);
    }

    /** The key's live reminder in the tenant, else the one that finished last; empty when the key names none. */
    public Uni<Optional<ReminderRow>> findByKey(String tenant, String key) {
        return pool.preparedQuery(FIND_BY_KEY.sql()).execute(FIND_BY_KEY.bind("tenant", tenant, "key", key))
                .map(ReminderLedger::rowIn);
    }

    /**
     * One batch of a cancel by filter: up to {@code limit} of the tenant's reminders that match and are in one of the
     * given states → cancelled, each with a new version and its event. Answers each one's schedule id (null for a
     * one-shot reminder).
     */
    public Uni<List<Long>> cancelMatching(String tenant, UserReminderFilter filter, Collection<ReminderState> from,
            int limit, String by, Instant now) {
        return pool.preparedQuery(CANCEL_MATCHING.sql()).execute(CANCEL_MATCHING.bind(matching(tenant, filter, from,
                        "limit", limit, "by", by, "now", utc(now))))
                .map(rows -> {
                    List<Long> scheduleIds = new ArrayList<>(rows.size());
                    rows.forEach(row -> scheduleIds.add(row.getLong("schedule_id")));
                    return scheduleIds;
                });
    }

    /** How many of the tenant's reminders match the filter in one of the given states. */
    public Uni<Long> countMatching(String tenant, UserReminderFilter filter, Collection<ReminderState> in) {
        return pool.preparedQuery(COUNT_MATCHING.sql()).execute(COUNT_MATCHING.bind(matching(tenant, filter, in)))
                .map(rows -> rows.iterator().next().getLong(0));
    }

    private static Object[] matching(String tenant, UserReminderFilter filter, Collection<ReminderState> states,
            Object... more) {
        Object[] own = { "tenant", tenant, "user_id", filter.userId(), "template", filter.template(), "tag", filter.tag(),
                "key_pattern", filter.keyPrefix() == null ? null : NameConditions.keyPrefixPattern(filter.keyPrefix()),
                "states", states.stream().map(ReminderState::wireName).toArray(String[]::new) };
        return concat(own, more);
    }

    /** The named values of a reminder's body, as the registering and replacing statements name them, then more. */
    private static Object[] withBody(NewReminder reminder, Object... more) {
        Object[] body = { "user_id", reminder.userId(), "channel", reminder.channel().wireName(),
                "template", reminder.template(), "fire_at", utc(reminder.fireAt()), "tz", reminder.tz(),
                "data", new JsonObject(reminder.data()), "expires_at", expiresAt(reminder), "urgent", reminder.urgent(),
                "tags", reminder.tags().toArray(String[]::new) };
        return concat(body, more);
    }

    private static Object[] concat(Object[] first, Object[] second) {
        Object[] both = new Object[first.length + second.length];
        System.arraycopy(first, 0, both, 0, first.length);
        System.arraycopy(second, 0, both, first.length, second.length);
        return both;
    }

    private static Optional<Registration> registrationIn(RowSet<Row> rows) {
        return rows.size() == 0 ? Optional.empty() : Optional.of(registrationOf(rows.iterator().next()));
    }

    /** A row answered with its created flag and the fields in which it differs from the registration. */
    private static Registration registrationOf(Row row) {
        return new Registration(ReminderRow.from(row), row.getBoolean("created"),
                List.of(row.getArrayOfStrings("differing")));
    }

    // --- hand-off ---------------------------------------------------------------------------------------------------

    /** One published reminder's mark, as the hand-off read the row, with the published event its write records. */
    public record HandOffMark(long id, int version, int handoff, String messageId, TimelineEvent published) {
    }

    /**
     * pending → handed_off, each with its message id, in one statement with others running or lingering
     * ({@code tickler.api.registration-linger}); answers the row as it now is, empty when it had moved on meanwhile.
     */
    public Uni<Optional<ReminderRow>> handedOff(HandOffMark mark, Instant now) {
        return handOffs.submit(handOffWrite(mark, now));
    }

    /** pending → handed_off for many, in one statement on the given client (the sweep's locking transaction). */
    public Uni<List<Optional<ReminderRow>>> handedOff(SqlClient client, List<HandOffMark> marks, Instant now) {
        if (marks.isEmpty()) {
            return Uni.createFrom().item(List.of());
        }
        List<Tuple> writes = marks.stream().map(mark -> handOffWrite(mark, now)).toList();
        return client.preparedQuery(HAND_OFF).execute(UnnestedStatement.arraysOf(writes, HAND_OFF_COLUMNS))
                .map(rows -> {
                    List<Optional<ReminderRow>> answers = new ArrayList<>();
                    marks.forEach(mark -> answers.add(Optional.empty()));
                    for (Row row : rows) {
                        answers.set(row.getLong(UnnestedStatement.POSITION).intValue() - 1,
                                Optional.of(ReminderRow.from(row)));
                    }
                    return answers;
                });
    }

    private static Tuple handOffWrite(HandOffMark mark, Instant now) {
        return Tuple.of(mark.id(), mark.version(), mark.handoff(), mark.messageId(), utc(now))
                .addOffsetDateTime(utc(mark.published().at()))
                .addString(new JsonObject(mark.published().detail()).encode());
    }

    /** pending → handed_off under quiet hours: published for the window's end, due back at dueAt. */
    public Uni<Optional<ReminderRow>> deferredAtHandOff(SqlClient client, HandOffMark mark, Instant dueAt,
            Instant until, Instant now) {
        return client.preparedQuery(DEFER_AT_HAND_OFF.sql()).execute(DEFER_AT_HAND_OFF.bind("id", mark.id(),
                        "version", mark.version(), "handoff", mark.handoff(), "message_id", mark.messageId(),
                        "due_at", utc(dueAt), "until", until.toString(), "now", utc(now)))
                .map(ReminderLedger::rowIn);
    }

    /** pending → skipped: inside the user's quiet hours with the skip policy, never sent. */
    public Uni<Optional<ReminderRow>> skippedAtHandOff(SqlClient client, long id, int version, int handoff,
            Instant now) {
        return client.preparedQuery(skipAtHandOff.sql())
                .execute(skipAtHandOff.bind("id", id, "version", version, "handoff", handoff, "now", utc(now)))
                .map(ReminderLedger::rowIn);
    }

    /** pending → expired: quiet hours that end after its expiry. */
    public Uni<Optional<ReminderRow>> expiredAtHandOff(SqlClient client, long id, int version, int handoff,
            String error, Instant now) {
        return client.preparedQuery(expireAtHandOff.sql()).execute(expireAtHandOff.bind("id", id,
                        "version", version, "handoff", handoff, "error", error, "now", utc(now)))
                .map(ReminderLedger::rowIn);
    }

    // --- claims -----------------------------------------------------------------------------------------------------

    /**
     * pending or handed_off (or delivering past its lease) → delivering, for a queue message that came by the given
     * transport, with its received event; empty when nothing was claimable, or when the reminder is not due by
     * {@code dueBy} (an early message). {@code deliveryCount} is the queue's, null when it did not say.
     */
    public Uni<Optional<Claim>> claim(long id, int version, Instant now, Instant leaseUntil, Instant dueBy,
            String transport, Integer deliveryCount) {
        return claims.submit(Tuple.of(id, version, utc(leaseUntil), utc(now), transport, utc(dueBy))
                .addValue(deliveryCount));
    }

    /**
     * The reconciler's claim, counted for the poison guard; empty once the reminder has had maxTakeovers. The reason
     * (push_overdue, lease_expired) goes to the timeline.
     */
    public Uni<Optional<Claim>> takeOver(long id, int version, Instant now, Instant leaseUntil, int maxTakeovers,
            String reason) {
        return pool.preparedQuery(TAKE_OVER.sql()).execute(TAKE_OVER.bind("id", id, "version", version,
                        "lease_until", utc(leaseUntil), "now", utc(now), "max_takeovers", maxTakeovers, "reason", reason))
                .map(rows -> rows.size() == 0 ? Optional.empty() : Optional.of(claimOf(rows.iterator().next())));
    }

    /** → failed by the poison guard, taken over maxTakeovers times; false when it moved on meanwhile. */
    public Uni<Boolean> giveUp(long id, int version, Instant now, int maxTakeovers, String error) {
        return pool.preparedQuery(giveUp.sql()).execute(giveUp.bind("id", id, "version", version, "now", utc(now),
                "max_takeovers", maxTakeovers, "error", error)).map(rows -> rows.rowCount() == 1);
    }

    /** A row's state, version and next send time, to say why a message claimed nothing. */
    public record RowState(ReminderState state, int version, Instant dueAt) {
    }

    /** The row's state, version and next send time; empty when there is no such row. */
    public Uni<Optional<RowState>> stateOf(long id) {
        return pool.preparedQuery(STATE_OF.sql()).execute(STATE_OF.bind("id", id))
                .map(rows -> rows.size() == 0 ? Optional.empty() : Optional.of(rows.iterator().next())
                        .map(row -> new RowState(WireNamed.fromWireName(ReminderState.class, row.getString("state")),
                                row.getInteger("version"), instant(row, "due_at"))));
    }

    /**
     * Renews the leases of claims this instance holds, {@value #RENEWALS_PER_STATEMENT} to a statement; answers the
     * ids whose claim is still this instance's (the others were taken over and must not be sent).
     */
    public Uni<Set<Long>> renewLeases(List<? extends HeldClaim> held, Instant until) {
        Set<Long> renewed = new HashSet<>();
        List<List<? extends HeldClaim>> parts = new ArrayList<>();
        for (int from = 0; from < held.size(); from += RENEWALS_PER_STATEMENT) {
            parts.add(held.subList(from, Math.min(held.size(), from + RENEWALS_PER_STATEMENT)));
        }
        return Multi.createFrom().iterable(parts)
                .onItem().transformToUniAndConcatenate(part -> pool.preparedQuery(RENEW_LEASES.sql()).execute(
                        RENEW_LEASES.bind("ids", part.stream().map(HeldClaim::id).toArray(Long[]::new),
                                "claimed_ats", part.stream().map(claim -> utc(claim.claimedAt()))
                                        .toArray(OffsetDateTime[]::new),
                                "lease_until", utc(until))))
                .invoke(rows -> rows.forEach(row -> renewed.add(row.getLong("id"))))
                .collect().last()
                .replaceWith(renewed);
    }

    // --- settlement -------------------------------------------------------------------------------------------------

    /**
     * delivering → sent, with its attempt and sent events. Should its batch fail, the write is tried once more on its
     * own, so that one bad statement does not turn a whole batch of finished sends into sends that are made again.
     */
    public Uni<Boolean> settleSent(HeldClaim claim, Attempt attempt, Instant now) {
        Tuple write = Tuple.tuple().addValue(claim.id()).addValue(claim.version()).addValue(utc(claim.claimedAt()))
                .addValue(utc(now)).addValue(attempt.number()).addValue(attempt.statusJson())
                .addValue(attempt.latencyMillis()).addValue(attempt.error()).addValue(utc(attempt.answeredAt()));
        return sends.submit(write).onFailure().recoverWithUni(batchFailure -> settleSent.apply(List.of(write))
                .map(answers -> answers.get(0)));
    }

    /** delivering → failed after this attempt; the error may say more than the attempt's own (how many were made). */
    public Uni<Boolean> settleFailed(HeldClaim claim, Attempt attempt, String error, Instant now) {
        return settle(settleFailed, claim, now, attemptValues(attempt, "error", error));
    }

    /** delivering → expired: past its expiry when an attempt was due, or (error) quiet hours that outlast it. */
    public Uni<Boolean> expireHeld(HeldClaim claim, String error, Instant now) {
        return settle(expireHeld, claim, now, "error", error);
    }

    /**
     * A failed attempt whose retry stays with this instance; still delivering, next sent at retryAt, from which its
     * dispatch lag then counts.
     */
    public Uni<Boolean> recordAttempt(HeldClaim claim, Attempt attempt, Instant retryAt, Instant now) {
        return settle(RECORD_ATTEMPT, claim, now, attemptValues(attempt, "retry_at", utc(retryAt)));
    }

    /**
     * delivering → handed_off for a retry at retryAt under a new hand-off number: on the queue under messageId, or,
     * when the queue did not take it (null), for the reconciler once retryAt and the grace have passed.
     */
    public Uni<Boolean> handBack(HeldClaim claim, Attempt attempt, int handoff, String messageId, Instant retryAt,
            Instant now) {
        return settle(HAND_BACK, claim, now, attemptValues(attempt, "handoff", handoff, "message_id", messageId,
                "retry_at", utc(retryAt)));
    }

    /**
     * delivering → handed_off inside the user's quiet hours, due back at dueAt (the window's end until, or the queue's
     * ceiling when sooner); messageId null when the queue refused.
     */
    public Uni<Boolean> deferHeld(HeldClaim claim, int handoff, String messageId, Instant dueAt, Instant until,
            Instant now) {
        return settle(DEFER_HELD, claim, now, "handoff", handoff, "message_id", messageId, "due_at", utc(dueAt),
                "until", until.toString());
    }

    /** delivering → skipped: inside the user's quiet hours with the skip policy, never sent. */
    public Uni<Boolean> skipHeld(HeldClaim claim, Instant now) {
        return settle(skipHeld, claim, now);
    }

    /** delivering → handed_off at shutdown: back on the queue under a new hand-off number. */
    public Uni<Boolean> release(HeldClaim claim, int handoff, String messageId, Instant now) {
        return settle(RELEASE, claim, now, "handoff", handoff, "message_id", messageId);
    }

    /** Shutdown gave the claim up and the queue could not take it back: still delivering, its lease over. */
    public Uni<Boolean> endLease(HeldClaim claim, Instant now) {
        return settle(END_LEASE, claim, now);
    }

    private static Object[] attemptValues(Attempt attempt, Object... more) {
        Object[] own = { "attempt", attempt.number(), "status", attempt.statusJson(), "latency_ms",
                attempt.latencyMillis(), "attempt_error", attempt.error(), "answered_at", utc(attempt.answeredAt()) };
        return concat(own, more);
    }

    /** A settling write: the claim it holds and the time, then the write's own named values. */
    private Uni<Boolean> settle(NamedSql sql, HeldClaim claim, Instant now, Object... namesAndValues) {
        Object[] held = { "id", claim.id(), "version", claim.version(), "claimed_at", utc(claim.claimedAt()), "now",
                utc(now) };
        return pool.preparedQuery(sql.sql()).execute(sql.bind(concat(held, namesAndValues))).map(RowSet::rowCount)
                .map(count -> count == 1);
    }

    // --- changes through the API ------------------------------------------------------------------------------------

    /** A reschedule's new values; data is the whole new object. */
    public record Rescheduled(Instant fireAt, String tz, Instant expiresAt, Map<String, Object> data) {
    }

    /**
     * pending, handed_off or failed → pending under a new version, if the row is still at {@code version} in one of
     * those states; empty otherwise (the caller reads why). {@code from} is the fire_at the change moved it from.
     */
    public Uni<Optional<ReminderRow>> reschedule(long id, String tenant, int version, Instant from, Rescheduled change,
            String by, Instant now) {
        return pool.preparedQuery(RESCHEDULE.sql()).execute(RESCHEDULE.bind("id", id, "tenant", tenant,
                        "version", version,
                        "fire_at", utc(change.fireAt()), "tz", change.tz(),
                        "expires_at", change.expiresAt() == null ? null : utc(change.expiresAt()),
                        "data", new JsonObject(change.data()), "now", utc(now), "from", from.toString(),
                        "to", change.fireAt().toString(), "by", by))
                .map(ReminderLedger::rowIn);
    }

    /**
     * {@link #cancel(SqlClient, Collection, String, Collection, String, Instant)} in a transaction of its own, for the
     * given tenant's reminders (null: whatever their tenant).
     */
    public Uni<List<ReminderRow>> cancel(Collection<Long> ids, String tenant, Collection<ReminderState> from, String by,
            Instant now) {
        return cancel(pool, ids, tenant, from, by, now);
    }

    /**
     * → cancelled with a new version, for those of the given reminders of the tenant (null: any) in one of the given
     * states; answers them.
     */
    public Uni<List<ReminderRow>> cancel(SqlClient client, Collection<Long> ids, String tenant,
            Collection<ReminderState> from, String by, Instant now) {
        if (ids.isEmpty()) {
            return Uni.createFrom().item(List.of());
        }
        return client.preparedQuery(CANCEL.sql()).execute(CANCEL.bind("ids", ids.toArray(Long[]::new), "tenant", tenant,
                        "states", from.stream().map(ReminderState::wireName).toArray(String[]::new), "by", by,
                        "now", utc(now)))
                .map(ReminderLedger::rows);
    }

    /** {@link #redrive(SqlClient, Collection, String, String, Instant)} in a transaction of its own. */
    public Uni<List<ReminderRow>> redrive(Collection<Long> ids, String tenant, String by, Instant now) {
        return redrive(pool, ids, tenant, by, now);
    }

    /**
     * failed → pending under the next hand-off number, for those of the given reminders of the tenant (null: any) that
     * are failed; answers them.
     */
    public Uni<List<ReminderRow>> redrive(SqlClient client, Collection<Long> ids, String tenant, String by,
            Instant now) {
        if (ids.isEmpty()) {
            return Uni.createFrom().item(List.of());
        }
        return client.preparedQuery(REDRIVE.sql())
                .execute(REDRIVE.bind("ids", ids.toArray(Long[]::new), "tenant", tenant, "by", by, "now", utc(now)))
                .map(ReminderLedger::rows);
    }

    // --- the sweep --------------------------------------------------------------------------------------------------

    /**
     * pending or handed_off past expires_at → expired. Answers the schedule id of each (null for a one-shot reminder),
     * whose schedule makes room for the next occurrence.
     */
    public Uni<List<Long>> expireWaiting(Instant now) {
        return pool.preparedQuery(expireWaiting.sql()).execute(expireWaiting.bind("now", utc(now))).map(rows -> {
            List<Long> scheduleIds = new ArrayList<>();
            rows.forEach(row -> scheduleIds.add(row.getLong("schedule_id")));
            return scheduleIds;
        });
    }

    /** Deletes one batch of sent, cancelled, expired and skipped reminders last changed before the cut-off. */
    public Uni<Integer> deleteFinished(Instant changedBefore, int limit) {
        return deleteBatch(deleteFinishedPastRetention(limit), changedBefore);
    }

    /** Deletes one batch of failed reminders last changed before the cut-off. */
    public Uni<Integer> deleteFailed(Instant changedBefore, int limit) {
        return deleteBatch(deleteFailedPastRetention(limit), changedBefore);
    }

    /**
     * A delete that a crash loses is only done again by the next sweep, so its commit does not wait for the WAL
     * flush: the claims' commits, which must, then never queue behind retention's.
     */
    private Uni<Integer> deleteBatch(NamedSql delete, Instant changedBefore) {
        return pool.withTransaction(connection -> connection.query(RETENTION_SETTINGS).execute()
                .chain(() -> connection.preparedQuery(delete.sql()).execute(delete.bind("before", utc(changedBefore))))
                .map(RowSet::rowCount));
    }

    // --- rows -------------------------------------------------------------------------------------------------------

    /** The reminders registered before under the registrations' natural keys, in the registrations' order. */
    private Uni<List<Registration>> findAllByNaturalKey(String tenant, List<NewReminder> reminders) {
        if (reminders.isEmpty()) {
            return Uni.createFrom().item(List.of());
        }
        return pool.preparedQuery(FIND_ALL_BY_NATURAL_KEY.sql())
                .execute(FIND_ALL_BY_NATURAL_KEY.bind(concat(bodies(reminders), new Object[] { "tenant", tenant })))
                .map(rows -> {
                    Registration[] found = new Registration[reminders.size()];
                    rows.forEach(row -> found[row.getLong("item").intValue() - 1] = registrationOf(row));
                    for (int i = 0; i < found.length; i++) {
                        if (found[i] == null) {
                            throw gone(reminders.get(i));
                        }
                    }
                    return List.of(found);
                });
    }

    /** A registration whose natural key was taken and whose row is not there when read: deleted in between. */
    private static IllegalStateException gone(NewReminder reminder) {
        return new IllegalStateException("the registered reminder of " + reminder.userId() + "/"
                + reminder.template() + " is gone");
    }

    /** The bodies of many registrations as the arrays a batch registration's statements name. */
    private static Object[] bodies(List<NewReminder> reminders) {
        return new Object[] {
                "user_ids", reminders.stream().map(NewReminder::userId).toArray(String[]::new),
                "channels", reminders.stream().map(reminder -> reminder.channel().wireName()).toArray(String[]::new),
                "templates", reminders.stream().map(NewReminder::template).toArray(String[]::new),
                "fire_ats", reminders.stream().map(reminder -> utc(reminder.fireAt())).toArray(OffsetDateTime[]::new),
                "zones", reminders.stream().map(NewReminder::tz).toArray(String[]::new),
                "data", reminders.stream().map(reminder -> new JsonObject(reminder.data()).encode())
                        .toArray(String[]::new),
                "expires_ats", reminders.stream().map(ReminderLedger::expiresAt).toArray(OffsetDateTime[]::new),
                "urgent", reminders.stream().map(NewReminder::urgent).toArray(Boolean[]::new),
                "tags", reminders.stream().map(reminder -> new JsonArray(reminder.tags()).encode())
                        .toArray(String[]::new) };
    }

    private static OffsetDateTime expiresAt(NewReminder reminder) {
        return reminder.expiresAfter() == null ? null : utc(reminder.fireAt().plus(reminder.expiresAfter()));
    }

    /**
     * The parameters of {@link #REGISTER_ALL} for registrations of one caller (at least one): their bodies, times and
     * trace contexts, in the order given.
     */
    private static Tuple registerAllValues(List<Registering> together) {
        Caller caller = together.get(0).caller();
        return REGISTER_ALL.bind(concat(bodies(together.stream().map(Registering::reminder).toList()), new Object[] {
                "tenant", caller.tenant(), "by", caller.by(),
                "nows", together.stream().map(Registering::now).toArray(OffsetDateTime[]::new),
                "trace_contexts", together.stream().map(Registering::traceContext).toArray(String[]::new) }));
    }

    /**
     * Each registration's row when the statement that inserted {@code inserted} created it, in the registrations'
     * order; of copies of one natural key, the first is answered with the row, the others with nothing.
     */
    private static List<Optional<Created>> createdRows(List<NewReminder> reminders, RowSet<Row> inserted) {
        Map<NaturalKey, Created> created = byNaturalKey(inserted);
        Set<NaturalKey> answered = new HashSet<>();
        List<Optional<Created>> rows = new ArrayList<>(reminders.size());
        for (NewReminder reminder : reminders) {
            NaturalKey key = NaturalKey.of(reminder);
            rows.add(created.containsKey(key) && answered.add(key) ? Optional.of(created.get(key)) : Optional.empty());
        }
        return rows;
    }

    private static Map<NaturalKey, Created> byNaturalKey(RowSet<Row> rows) {
        Map<NaturalKey, Created> byKey = new HashMap<>();
        for (Row row : rows) {
            Created created = Created.from(row);
            ReminderRow reminder = created.reminder();
            byKey.put(new NaturalKey(reminder.userId(), reminder.template(), reminder.fireAt()), created);
        }
        return byKey;
    }

    /** What makes a registration the same registration (docs/contract.md#registration-api). */
    private record NaturalKey(String userId, String template, Instant fireAt) {

        /** Its fire_at as Postgres keeps it: to the microsecond. */
        static NaturalKey of(NewReminder reminder) {
            return new NaturalKey(reminder.userId(), reminder.template(),
                    reminder.fireAt().truncatedTo(ChronoUnit.MICROS));
        }
    }

    private static final Comparator<NewReminder> NATURAL_KEY_ORDER = Comparator.comparing(NewReminder::userId)
            .thenComparing(NewReminder::template).thenComparing(NewReminder::fireAt);

    /** The natural key is what concurrent inserts of the same reminder wait on: taken in one order, no deadlock. */
    private static final Comparator<Registering> REGISTERING_ORDER = Comparator.comparing(Registering::reminder,
            NATURAL_KEY_ORDER);

    private static Optional<Created> createdIn(RowSet<Row> rows) {
        return rows.size() == 0 ? Optional.empty() : Optional.of(Created.from(rows.iterator().next()));
    }

    private static Optional<ReminderRow> rowIn(RowSet<Row> rows) {
        return rows.size() == 0 ? Optional.empty() : Optional.of(ReminderRow.from(rows.iterator().next()));
    }

    private static List<ReminderRow> rows(RowSet<Row> rows) {
        List<ReminderRow> found = new ArrayList<>(rows.size());
        rows.forEach(row -> found.add(ReminderRow.from(row)));
        return found;
    }

    private static Claim claimOf(Row row) {
        JsonObject data = row.getJsonObject("data");
        return new Claim(row.getLong("id"), row.getString("tenant"), row.getInteger("version"), row.getInteger("handoff"),
                row.getInteger("attempts"), row.getString("user_id"), row.getString("channel"),
                row.getString("template"), data == null ? Map.of() : data.getMap(), instant(row, "fire_at"),
                instant(row, "due_at"), row.getString("tz"), instant(row, "expires_at"), instant(row, "claimed_at"),
                instant(row, "lease_until"), row.getLong("schedule_id"),
                QuietHoursRepository.ofReminder(row).orElse(null));
    }
}
