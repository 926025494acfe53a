package dev.tickler.observability;

import static dev.tickler.db.SqlTimestamps.instant;
import static dev.tickler.db.SqlTimestamps.utc;
import static dev.tickler.ledger.ReminderState.DELIVERING;
import static dev.tickler.ledger.ReminderState.HANDED_OFF;
import static dev.tickler.ledger.ReminderState.PENDING;
import static dev.tickler.ledger.ReminderState.sqlList;

import java.time.Instant;
import java.util.EnumMap;
import java.util.Map;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;

import dev.tickler.ledger.Deferrals;
import dev.tickler.ledger.ReminderState;
import dev.tickler.db.WireNamed;

/** Aggregate questions about the reminders table, for the gauges and the admin view. */
@ApplicationScoped
public class ReminderStatistics {

    private final Pool pool;

    public ReminderStatistics(Pool pool) {
        this.pool = pool;
    }

    /** Every state, with 0 for those that have no rows. */
    public Uni<Map<ReminderState, Long>> countByState() {
        return pool.query("SELECT state, count(*) FROM reminders GROUP BY state").execute().map(rows -> {
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

    /** When the oldest reminder that is due and not yet delivered was due (fire_at, or the end of its deferral). */
    public Uni<Optional<Instant>> oldestOverdue(Instant now) {
        return pool.preparedQuery("SELECT min(" + Deferrals.DUE + ") FROM reminders"
                        + " WHERE state IN " + sqlList(PENDING, HANDED_OFF, DELIVERING)
                        + " AND " + Deferrals.OVERDUE_BEFORE_$1)
                .execute(Tuple.of(utc(now)))
                .map(rows -> Optional.ofNullable(instant(rows.iterator().next())));
    }

    /** Handed-off reminders not yet due: what the queue should be holding as delayed. */
    public Uni<Long> handedOffAhead(Instant now) {
        return pool.preparedQuery("SELECT count(*) FROM reminders"
                        + " WHERE state = " + HANDED_OFF.sql() + " AND fire_at > $1")
                .execute(Tuple.of(utc(now)))
                .map(rows -> rows.iterator().next().getLong(0));
    }
}
