package dev.tickler.observability;

import static dev.tickler.db.SqlTimestamps.instant;
import static dev.tickler.db.SqlTimestamps.utc;
import static dev.tickler.ledger.ReminderState.DELIVERING;
import static dev.tickler.ledger.ReminderState.HANDED_OFF;
import static dev.tickler.ledger.ReminderState.PENDING;

import java.time.Instant;
import java.util.EnumMap;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

import jakarta.enterprise.context.ApplicationScoped;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;

import dev.tickler.ledger.Deferrals;
import dev.tickler.ledger.ReminderState;
import dev.tickler.db.IndexesOnly;
import dev.tickler.db.WireNamed;

/** Aggregate questions about the reminders table, for the gauges and the admin view. */
@ApplicationScoped
public class ReminderStatistics {

    /**
     * Folds the deltas the writes appended into the counts (V15__state_counts.sql) and answers the counts: reads a few
     * rows, whatever the size of the table. Two folds at once count each delta once: the second waits for the first's
     * row locks and finds its deltas gone.
     */
    private static final String FOLD_STATE_COUNTS = "WITH folded AS (DELETE FROM reminder_state_deltas RETURNING state, delta),"
            + " sums AS (SELECT state, sum(delta) AS delta FROM folded GROUP BY state),"
            + " updated AS (UPDATE reminder_state_counts c SET reminders = c.reminders + sums.delta FROM sums"
            + " WHERE c.state = sums.state RETURNING c.state, c.reminders)"
            + " SELECT c.state, coalesce(updated.reminders, c.reminders) FROM reminder_state_counts c"
            + " LEFT JOIN updated ON updated.state = c.state";

    /** (Public, as every statement plan tests read.) */
    public static final String OLDEST_OVERDUE = "SELECT min(due) FROM (" + String.join(" UNION ALL ",
            Stream.of(PENDING, HANDED_OFF, DELIVERING).map(state -> "SELECT min(" + Deferrals.DUE + ") AS due"
                    + " FROM reminders WHERE state = " + state.sql() + " AND " + Deferrals.OVERDUE_BEFORE_$1).toList())
            + ") overdue";

    public static final String HANDED_OFF_AHEAD = "SELECT (SELECT reminders FROM reminder_state_counts WHERE state = "
            + HANDED_OFF.sql() + ") + (SELECT coalesce(sum(delta), 0) FROM reminder_state_deltas WHERE state = "
            + HANDED_OFF.sql() + ") - (SELECT count(*) FROM reminders WHERE state = " + HANDED_OFF.sql()
            + " AND fire_at <= $1)";

    private final Pool pool;

    public ReminderStatistics(Pool pool) {
        this.pool = pool;
    }

    /** Every state, with 0 for those that have no rows. */
    public Uni<Map<ReminderState, Long>> countByState() {
        return pool.query(FOLD_STATE_COUNTS).execute().map(rows -> {
            Map<ReminderState, Long> counts = new EnumMap<>(ReminderState.class);
            for (ReminderState state : ReminderState.values()) {
                counts.put(state, 0L);
            }
            for (Row row : rows) {
                WireNamed.find(ReminderState.class, row.getString(0)).ifPresent(state -> counts.put(state, row.getLong(1)));
            }
            return counts;
        });
    }

    /**
     * When the oldest reminder that is due and not yet delivered was due (fire_at, or the end of its deferral): each
     * state from its own partial index, over the rows past their fire_at only, so the work follows what is overdue or
     * in flight, not the table.
     */
    public Uni<Optional<Instant>> oldestOverdue(Instant now) {
        return IndexesOnly.read(pool,
                        connection -> connection.preparedQuery(OLDEST_OVERDUE).execute(Tuple.of(utc(now))))
                .map(rows -> Optional.ofNullable(instant(rows.iterator().next())));
    }

    /**
     * Handed-off reminders not yet due, what the queue should be holding as delayed: the handed-off count (folded or
     * not yet) less those already due, which are few, read from the partial index.
     */
    public Uni<Long> handedOffAhead(Instant now) {
        return pool.preparedQuery(HANDED_OFF_AHEAD).execute(Tuple.of(utc(now)))
                .map(rows -> rows.iterator().next().getLong(0));
    }
}
