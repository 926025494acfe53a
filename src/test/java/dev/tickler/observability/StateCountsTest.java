package dev.tickler.observability;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;

import dev.tickler.db.IndexesOnly;
import dev.tickler.testing.Database;
import dev.tickler.testing.QueryPlan;

/**
 * The gauges' counts by state are kept by the writes themselves (V15__state_counts.sql), so the gauges read a few rows
 * however large the table grows; and the other gauge queries read what is overdue, not the table.
 */
@QuarkusTest
class StateCountsTest {

    @Inject
    Database database;

    @Inject
    Pool pool;

    @Inject
    ReminderStatistics statistics;

    @Test
    void countsFollowEveryKindOfWrite() {
        String user = "counts-" + System.nanoTime();
        database.execute("INSERT INTO reminders (user_id, channel, template, fire_at, state)"
                + " SELECT $1, 'email', 't' || g, now() + g * interval '1 hour',"
                + " (ARRAY['pending', 'handed_off', 'delivering', 'failed'])[1 + g % 4] FROM generate_series(1, 40) g", user);
        // a repeated natural key inserts nothing
        database.execute("INSERT INTO reminders (user_id, channel, template, fire_at) SELECT user_id, channel, template,"
                + " fire_at FROM reminders WHERE user_id = $1 AND schedule_id IS NULL ON CONFLICT DO NOTHING", user);
        database.execute("UPDATE reminders SET state = 'sent' WHERE user_id = $1 AND state = 'delivering'", user);
        database.execute("UPDATE reminders SET attempts = attempts + 1 WHERE user_id = $1", user);
        database.execute("WITH moved AS (UPDATE reminders SET state = 'cancelled' WHERE user_id = $1 AND state = 'pending'"
                + " RETURNING id) DELETE FROM reminders WHERE user_id = $1 AND state = 'failed'", user);
        database.execute("DELETE FROM reminders WHERE id IN (SELECT id FROM reminders WHERE user_id = $1"
                + " AND state = 'sent' LIMIT 3)", user);

        List<Map<String, Long>> keptAndCounted = keptCountsBesideTheRows();
        assertThat(keptAndCounted.get(0)).isEqualTo(keptAndCounted.get(1));
        Map<String, Long> folded = new HashMap<>();
        statistics.countByState().await().indefinitely()
                .forEach((state, count) -> folded.put(state.wireName(), count));
        assertThat(folded.get("cancelled")).isGreaterThanOrEqualTo(10);
        assertThat(database.count("SELECT count(*) FROM reminders WHERE user_id = $1 AND state = 'sent'", user))
                .isEqualTo(7);
        database.execute("DELETE FROM reminders WHERE user_id = $1", user);
    }

    @Test
    void gaugeQueriesReadWhatIsOverdueNotTheTable() {
        database.execute("INSERT INTO reminders (user_id, channel, template, fire_at, state)"
                + " SELECT 'gauge-ahead', 'email', 't' || g, now() + g * interval '1 second', 'handed_off'"
                + " FROM generate_series(1, 50000) g");
        database.execute("INSERT INTO reminders (user_id, channel, template, fire_at, state, sent_at)"
                + " SELECT 'gauge-sent', 'email', 't' || g, now() - g * interval '1 second', 'sent', now()"
                + " FROM generate_series(1, 50000) g");
        database.execute("ANALYZE reminders");
        Instant now = Instant.now();

        OffsetDateTime at = now.atOffset(ZoneOffset.UTC);
        for (QueryPlan plan : List.of(oldestOverdueAsTheGaugeReadsIt(at),
                QueryPlan.explain(pool, EXPLAINED, ReminderStatistics.HANDED_OFF_AHEAD, at))) {
            long buffers = plan.plan().getJsonObject("Plan").getLong("Shared Hit Blocks", 0L)
                    + plan.plan().getJsonObject("Plan").getLong("Shared Read Blocks", 0L);
            System.out.printf("gauge query: %d buffers, %.3f ms; plan %s%n", buffers, plan.executionMillis(),
                    plan.nodeTypes());
            assertThat(plan.seqScanned()).doesNotContain("reminders");
            assertThat(buffers).isLessThan(200);
        }
        long ahead = statistics.handedOffAhead(now).await().indefinitely();
        assertThat(ahead).isEqualTo(database.count("SELECT count(*) FROM reminders WHERE state = 'handed_off'"
                + " AND fire_at > $1", now.atOffset(ZoneOffset.UTC)));
        // handed off and never pushed: left behind, a later test's sweep with a moved clock would reconcile them all
        database.execute("DELETE FROM reminders WHERE user_id IN ('gauge-ahead', 'gauge-sent')");
    }

    private static final String EXPLAINED = "ANALYZE, BUFFERS, FORMAT JSON";

    /** The oldest overdue as {@link ReminderStatistics} reads it: in a transaction held to the indexes. */
    private QueryPlan oldestOverdueAsTheGaugeReadsIt(OffsetDateTime at) {
        return IndexesOnly.read(pool, connection -> connection.preparedQuery("EXPLAIN (" + EXPLAINED + ") "
                        + ReminderStatistics.OLDEST_OVERDUE).execute(Tuple.of(at)))
                .map(QueryPlan::of)
                .await().indefinitely();
    }

    private static final String COUNTS_WITH_UNFOLDED_DELTAS = "SELECT state, sum(n)::bigint FROM (SELECT state,"
            + " reminders AS n FROM reminder_state_counts UNION ALL SELECT state, delta FROM reminder_state_deltas) c"
            + " GROUP BY state HAVING sum(n) <> 0";

    /** The kept counts (deltas not folded yet included) and the rows counted, in one repeatable-read snapshot. */
    private List<Map<String, Long>> keptCountsBesideTheRows() {
        return pool.withConnection(connection -> connection.query("BEGIN ISOLATION LEVEL REPEATABLE READ").execute()
                .chain(() -> read(connection, COUNTS_WITH_UNFOLDED_DELTAS))
                .chain(kept -> read(connection, "SELECT state, count(*) FROM reminders GROUP BY state")
                        .map(counted -> List.of(kept, counted)))
                .call(() -> connection.query("COMMIT").execute()))
                .await().indefinitely();
    }

    private static Uni<Map<String, Long>> read(SqlConnection connection, String sql) {
        return connection.query(sql).execute().map(rows -> {
            Map<String, Long> byState = new HashMap<>();
            for (Row row : rows) {
                byState.put(row.getString(0), row.getLong(1));
            }
            return byState;
        });
    }
}
