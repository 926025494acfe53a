package dev.tickler.reminder;

import static dev.tickler.db.SqlTimestamps.utc;
import static dev.tickler.ledger.ReminderState.HANDED_OFF;
import static dev.tickler.ledger.ReminderState.PENDING;
import static dev.tickler.timeline.TimelineSql.recording;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
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

import dev.tickler.db.PipelinedStatement;
import dev.tickler.db.StatementBatcher;
import dev.tickler.timeline.EventType;
import dev.tickler.timeline.TimelineSql.Event;
import dev.tickler.ledger.NewReminder;
import dev.tickler.ledger.Registration;
import dev.tickler.ledger.ReminderRow;

/**
 * The writes of a registration, on the hot path of every campaign: an idempotent insert (one statement that either
 * creates the row or finds the key taken) and the hand-off mark. Both go to Postgres in pipelined batches while
 * others are running ({@link StatementBatcher}), so a busy instance pays one round trip and one commit per batch
 * instead of per reminder; that is why this uses the SQL client beside Panache.
 */
@ApplicationScoped
public class RegistrationStore {

    /**
     * A reminder registered past its fire_at is due from its registration (quiethours.Deferrals): its lateness is the
     * caller's, not dispatch lag.
     */
    private static final String DUE_FROM_REGISTRATION = "CASE WHEN %1$s < %2$s::timestamptz THEN %2$s::timestamptz END";

    /** The natural key names one-shot reminders only; a schedule's occurrences are named by their number. */
    private static final String NATURAL_KEY_TAKEN =
            " ON CONFLICT (user_id, template, fire_at) WHERE schedule_id IS NULL DO NOTHING";

    /**
     * The registered event names the key that registered it ($9); $11 is the registration's traceparent, which a
     * later sweep's publish or reconciler's take-over links its own trace to.
     */
    static final String INSERT = recording("INSERT INTO reminders (user_id, channel, template, fire_at, tz, data,"
            + " expires_at, created_at, updated_at, urgent, trace_context, deferred_until)"
            + " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8, $10, $11, " + DUE_FROM_REGISTRATION.formatted("$4", "$8") + ")"
            + NATURAL_KEY_TAKEN + " RETURNING " + ReminderRow.COLUMNS,
            Event.of("$8", EventType.REGISTERED, "'by'", "$9::text"));

    private static final String FIND_BY_KEY = "SELECT " + ReminderRow.COLUMNS
            + " FROM reminders WHERE user_id = $1 AND template = $2 AND fire_at = $3 AND schedule_id IS NULL";

    private static final String FIND_BY_ID = "SELECT " + ReminderRow.COLUMNS + " FROM reminders WHERE id = $1";

    /** Unless something moved it on meanwhile: a push that claimed it (delay 0), a cancel, a racing hand-off. */
    private static final String MARK_HANDED_OFF = "UPDATE reminders SET state = " + HANDED_OFF.sql()
            + ", message_id = $4, updated_at = $5 WHERE id = $1 AND version = $2 AND handoff = $3 AND state = " + PENDING.sql()
            + " RETURNING " + ReminderRow.COLUMNS;

    /** A batch registration's rows in one statement, in the order given; a key taken, or repeated, inserts nothing. */
    private static final String INSERT_ALL = recording("INSERT INTO reminders (user_id, channel, template, fire_at,"
            + " tz, data, expires_at, created_at, updated_at, urgent, trace_context, deferred_until)"
            + " SELECT u, c, t, f, z, d::jsonb, e, $8, $8, g, $11, " + DUE_FROM_REGISTRATION.formatted("f", "$8")
            + " FROM unnest($1::text[], $2::text[], $3::text[],"
            + " $4::timestamptz[], $5::text[], $6::text[], $7::timestamptz[], $10::boolean[])"
            + " WITH ORDINALITY AS i(u, c, t, f, z, d, e, g, n)"
            + " ORDER BY n" + NATURAL_KEY_TAKEN + " RETURNING " + ReminderRow.COLUMNS,
            Event.of("$8", EventType.REGISTERED, "'by'", "$9::text"));

    /** The rows of many natural keys, each found through the unique index. */
    private static final String FIND_ALL_BY_KEY = "SELECT " + prefixed("r.") + " FROM reminders r"
            + " JOIN unnest($1::text[], $2::text[], $3::timestamptz[]) AS k(u, t, f)"
            + " ON r.user_id = k.u AND r.template = k.t AND r.fire_at = k.f WHERE r.schedule_id IS NULL";

    private static final int MAX_BATCH = 100;
    private static final int MAX_BATCHES_IN_FLIGHT = 4;

    private final Pool pool;
    private final StatementBatcher<Tuple, Optional<ReminderRow>> inserts;
    private final StatementBatcher<Tuple, Optional<ReminderRow>> handOffs;

    public RegistrationStore(Pool pool) {
        this.pool = pool;
        // the natural key is what concurrent inserts of the same reminder wait on: taken in one order, no deadlock
        Comparator<Tuple> byNaturalKey = Comparator.<Tuple, String> comparing(insert -> insert.getString(0))
                .thenComparing(insert -> insert.getString(2))
                .thenComparing(insert -> insert.getOffsetDateTime(3));
        this.inserts = new StatementBatcher<>(PipelinedStatement.of(pool, INSERT, RegistrationStore::rowIn),
                byNaturalKey, MAX_BATCH, MAX_BATCHES_IN_FLIGHT);
        this.handOffs = new StatementBatcher<>(PipelinedStatement.of(pool, MARK_HANDED_OFF, RegistrationStore::rowIn),
                Comparator.comparingLong(update -> update.getLong(0)), MAX_BATCH, MAX_BATCHES_IN_FLIGHT);
    }

    /**
     * The new reminder's row, or empty when (user_id, template, fire_at) is already registered. Should its batch
     * fail, the insert is tried once more on its own, so one bad write does not fail its neighbours. traceContext is
     * the registering request's traceparent, null when tracing is off.
     */
    public Uni<Optional<ReminderRow>> insert(NewReminder reminder, String by, Instant now, String traceContext) {
        Tuple values = Tuple.tuple().addString(reminder.userId()).addString(reminder.channel().wireName())
                .addString(reminder.template()).addOffsetDateTime(utc(reminder.fireAt())).addString(reminder.tz())
                .addJsonObject(new JsonObject(reminder.data()))
                .addOffsetDateTime(reminder.expiresAfter() == null ? null
                        : utc(reminder.fireAt().plus(reminder.expiresAfter())))
                .addOffsetDateTime(utc(now)).addString(by).addBoolean(reminder.urgent()).addString(traceContext);
        return inserts.submit(values)
                .onFailure().recoverWithUni(batchFailure -> pool.preparedQuery(INSERT).execute(values)
                        .map(RegistrationStore::rowIn));
    }

    public Uni<ReminderRow> findByNaturalKey(String userId, String template, Instant fireAt) {
        return pool.preparedQuery(FIND_BY_KEY).execute(Tuple.of(userId, template, utc(fireAt)))
                .map(rows -> rowIn(rows).orElseThrow(() -> new IllegalStateException(
                        "the registered reminder of " + userId + "/" + template + " is gone")));
    }

    public Uni<Optional<ReminderRow>> findById(long id) {
        return pool.preparedQuery(FIND_BY_ID).execute(Tuple.of(id)).map(RegistrationStore::rowIn);
    }

    /** The row marked handed off with its message id; empty when it had moved on meanwhile. */
    public Uni<Optional<ReminderRow>> markHandedOff(ReminderRow reminder, String messageId, Instant now) {
        return handOffs.submit(Tuple.of(reminder.id(), reminder.version(), reminder.handoff(), messageId, utc(now)));
    }

    /**
     * Registers many at once (docs/contract.md#batch-registration): answers, in the order given, each reminder's row
     * and whether this call created it. A key registered before, or repeated in the list, answers the existing row;
     * within the list the first copy creates it.
     */
    public Uni<List<Registration>> insertAll(List<NewReminder> reminders, String by, Instant now,
            String traceContext) {
        // in natural-key order, as concurrent batches take the unique index's locks; the first copy first
        List<NewReminder> ordered = reminders.stream().sorted(NATURAL_KEY_ORDER).toList();
        int size = ordered.size();
        String[] users = new String[size];
        String[] channels = new String[size];
        String[] templates = new String[size];
        OffsetDateTime[] fireAts = new OffsetDateTime[size];
        String[] zones = new String[size];
        String[] data = new String[size];
        OffsetDateTime[] expiries = new OffsetDateTime[size];
        Boolean[] urgent = new Boolean[size];
        for (int i = 0; i < size; i++) {
            NewReminder reminder = ordered.get(i);
            users[i] = reminder.userId();
            channels[i] = reminder.channel().wireName();
            templates[i] = reminder.template();
            fireAts[i] = utc(reminder.fireAt());
            zones[i] = reminder.tz();
            data[i] = new JsonObject(reminder.data()).encode();
            expiries[i] = reminder.expiresAfter() == null ? null : utc(reminder.fireAt().plus(reminder.expiresAfter()));
            urgent[i] = reminder.urgent();
        }
        return pool.preparedQuery(INSERT_ALL)
                .execute(Tuple.tuple().addArrayOfString(users).addArrayOfString(channels).addArrayOfString(templates)
                        .addArrayOfOffsetDateTime(fireAts).addArrayOfString(zones).addArrayOfString(data)
                        .addArrayOfOffsetDateTime(expiries).addOffsetDateTime(utc(now)).addString(by)
                        .addArrayOfBoolean(urgent).addString(traceContext))
                .chain(inserted -> {
                    Map<NaturalKey, ReminderRow> created = byKey(inserted);
                    List<NewReminder> notCreated = reminders.stream()
                            .filter(reminder -> !created.containsKey(NaturalKey.of(reminder))).toList();
                    return findAllByKey(notCreated).map(existing -> {
                        Set<NaturalKey> answeredAsCreated = new HashSet<>();
                        List<Registration> registrations = new ArrayList<>(reminders.size());
                        for (NewReminder reminder : reminders) {
                            NaturalKey key = NaturalKey.of(reminder);
                            ReminderRow row = created.get(key);
                            if (row != null && answeredAsCreated.add(key)) {
                                registrations.add(new Registration(row, true));
                            } else {
                                registrations.add(new Registration(row != null ? row : existing.get(key), false));
                            }
                        }
                        return registrations;
                    });
                });
    }

    /** Marks many published reminders handed off in one round trip; answers each one's row as it now is. */
    public Uni<List<ReminderRow>> markAllHandedOff(List<ReminderRow> reminders, List<String> messageIds, Instant now) {
        if (reminders.isEmpty()) {
            return Uni.createFrom().item(List.of());
        }
        List<Tuple> updates = new ArrayList<>();
        for (int i = 0; i < reminders.size(); i++) {
            ReminderRow reminder = reminders.get(i);
            updates.add(Tuple.of(reminder.id(), reminder.version(), reminder.handoff(), messageIds.get(i), utc(now)));
        }
        return PipelinedStatement.of(pool, MARK_HANDED_OFF, RegistrationStore::rowIn).apply(updates)
                .map(marked -> {
                    List<ReminderRow> rows = new ArrayList<>(reminders.size());
                    for (int i = 0; i < reminders.size(); i++) {
                        rows.add(marked.get(i).orElse(reminders.get(i)));
                    }
                    return rows;
                });
    }

    private Uni<Map<NaturalKey, ReminderRow>> findAllByKey(List<NewReminder> reminders) {
        if (reminders.isEmpty()) {
            return Uni.createFrom().item(Map.of());
        }
        return pool.preparedQuery(FIND_ALL_BY_KEY)
                .execute(Tuple.tuple()
                        .addArrayOfString(reminders.stream().map(NewReminder::userId).toArray(String[]::new))
                        .addArrayOfString(reminders.stream().map(NewReminder::template).toArray(String[]::new))
                        .addArrayOfOffsetDateTime(reminders.stream().map(reminder -> utc(reminder.fireAt()))
                                .toArray(OffsetDateTime[]::new)))
                .map(RegistrationStore::byKey);
    }

    private static Map<NaturalKey, ReminderRow> byKey(RowSet<Row> rows) {
        Map<NaturalKey, ReminderRow> byKey = new HashMap<>();
        for (Row row : rows) {
            ReminderRow reminder = ReminderRow.from(row);
            byKey.put(new NaturalKey(reminder.userId(), reminder.template(), reminder.fireAt()), reminder);
        }
        return byKey;
    }

    /** What makes a registration the same registration (docs/contract.md#registration-api). */
    private record NaturalKey(String userId, String template, Instant fireAt) {

        static NaturalKey of(NewReminder reminder) {
            return new NaturalKey(reminder.userId(), reminder.template(), reminder.fireAt());
        }
    }

    private static final Comparator<NewReminder> NATURAL_KEY_ORDER = Comparator.comparing(NewReminder::userId)
            .thenComparing(NewReminder::template).thenComparing(NewReminder::fireAt);

    private static String prefixed(String alias) {
        return alias + ReminderRow.COLUMNS.replace(", ", ", " + alias);
    }

    private static Optional<ReminderRow> rowIn(RowSet<Row> rows) {
        return rows.size() == 0 ? Optional.empty() : Optional.of(ReminderRow.from(rows.iterator().next()));
    }
}
