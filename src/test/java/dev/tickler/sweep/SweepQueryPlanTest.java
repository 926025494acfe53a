package dev.tickler.sweep;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.json.JsonObject;
import io.vertx.mutiny.sqlclient.Pool;

import dev.tickler.ledger.CallbackOutbox;
import dev.tickler.ledger.ReminderLedger;
import dev.tickler.security.Tenants;
import dev.tickler.testing.Api;
import dev.tickler.testing.Database;
import dev.tickler.testing.QueryPlan;

/**
 * The sweep's queries read about as many rows as they act on: the hand-off reads the partial index on pending rows,
 * and the reconcile pass, which runs every minute, does index-only work when nothing is overdue.
 */
@QuarkusTest
class SweepQueryPlanTest {

    @Inject
    Database database;

    @Inject
    Pool pool;

    @Test
    void handOffQueryReadsOnlyTheRowsItReturns() {
        database.insertParked(Api.newUser(), 100_000, Instant.now().plus(Duration.ofDays(30)));
        database.insertParked(Api.newUser(), 40, Instant.now().plus(Duration.ofHours(1)));
        database.execute("ANALYZE reminders");
        Instant horizon = Instant.now().plus(Duration.ofDays(6));
        long due = database.count("SELECT count(*) FROM reminders WHERE state = 'pending' AND fire_at <= $1",
                horizon.atOffset(ZoneOffset.UTC));

        QueryPlan plan = QueryPlan.explain(pool, "ANALYZE, FORMAT JSON", SweepRepository.DUE_PARKED,
                horizon.atOffset(ZoneOffset.UTC), 2000, SweepRepository.ParkedPosition.START.fireAt(), 0L);

        assertThat(plan.nodeTypes()).doesNotContain("Seq Scan");
        JsonObject scan = plan.nodes().stream()
                .filter(node -> "reminders_pending_fire_at_id_idx".equals(node.getString("Index Name")))
                .findFirst().orElseThrow(() -> new AssertionError("the partial index is not used: " + plan));
        long rowsRead = scan.getLong("Actual Rows") + scan.getLong("Rows Removed by Filter", 0L);
        System.out.printf("hand-off query: %d due of %d+ parked rows, %d read through %s in %.3f ms%n", due,
                100_000, rowsRead, scan.getString("Index Name"), plan.executionMillis());
        assertThat(rowsRead).isBetween(due, due + 5);
    }

    @Test
    void reconcileFindsNothingOverdueFromItsPartialIndexesAlone() {
        // plenty of reminders waiting on the queue and plenty finished, none overdue
        database.execute("INSERT INTO reminders (user_id, channel, template, fire_at, state)"
                + " SELECT 'plan-waiting', 'email', 't' || g, now() + g * interval '1 second', 'handed_off'"
                + " FROM generate_series(1, 50000) g");
        database.execute("INSERT INTO reminders (user_id, channel, template, fire_at, state, sent_at)"
                + " SELECT 'plan-sent', 'email', 't' || g, now() - g * interval '1 second', 'sent', now()"
                + " FROM generate_series(1, 50000) g");
        database.execute("ANALYZE reminders");
        Instant now = Instant.now();

        QueryPlan overdue = QueryPlan.explain(pool, "ANALYZE, BUFFERS, FORMAT JSON", SweepRepository.OVERDUE,
                now.minus(Duration.ofMinutes(10)).atOffset(ZoneOffset.UTC), now.atOffset(ZoneOffset.UTC), 2000);
        QueryPlan expiry = QueryPlan.explain(pool, "FORMAT JSON", ReminderLedger.expireWaiting(CallbackOutbox.of(List.of(Tenants.DEFAULT))).sql(),
                now.atOffset(ZoneOffset.UTC));

        assertThat(overdue.nodeTypes()).doesNotContain("Seq Scan");
        assertThat(overdue.indexes()).contains("reminders_handed_off_fire_at_idx", "reminders_delivering_lease_idx")
                .doesNotContain("reminders_pkey");
        long buffers = overdue.plan().getJsonObject("Plan").getLong("Shared Hit Blocks", 0L)
                + overdue.plan().getJsonObject("Plan").getLong("Shared Read Blocks", 0L);
        System.out.printf("reconcile query with nothing overdue: %d buffers, %.3f ms; plan %s%n", buffers,
                overdue.executionMillis(), overdue.nodeTypes());
        assertThat(buffers).isLessThan(200);
        assertThat(expiry.seqScanned()).doesNotContain("reminders");
        assertThat(expiry.indexes()).contains("reminders_waiting_expires_at_idx");
        database.execute("DELETE FROM reminders WHERE user_id IN ('plan-waiting', 'plan-sent')");
    }

    @Test
    void retentionDeletesReadTheFinishedIndexOnly() {
        Instant cutOff = Instant.now().minus(Duration.ofDays(30));

        for (String delete : retentionDeletes()) {
            QueryPlan plan = QueryPlan.explain(pool, "FORMAT JSON", delete, cutOff.atOffset(ZoneOffset.UTC));

            // failed reminders have a partial index of their own too (the operator API's), which may be the cheaper read
            assertThat(plan.indexes()).as(delete).containsAnyOf("reminders_finished_updated_at_idx",
                    delete.contains("'failed'") ? "reminders_failed_fire_at_id_idx"
                            : "reminders_finished_updated_at_idx");
            assertThat(plan.seqScanned()).as(delete).doesNotContain("reminders");
        }
    }

    @Test
    void retentionDeletesGenericPlanReadsTheFinishedIndexAndThePrimaryKeys() {
        // a deployment's table after a while: finished reminders changed over the last two months, each with its
        // events, and reminders still waiting on the queue
        database.execute("INSERT INTO reminders (user_id, channel, template, fire_at, state, sent_at, updated_at)"
                + " SELECT 'plan-retention', 'email', 't' || g, now() - g * interval '1 minute', 'sent', now(),"
                + " now() - g * interval '1 minute' FROM generate_series(1, 60000) g");
        database.execute("INSERT INTO reminders (user_id, channel, template, fire_at, state)"
                + " SELECT 'plan-retention', 'email', 'w' || g, now() + g * interval '1 second', 'handed_off'"
                + " FROM generate_series(1, 20000) g");
        database.execute("INSERT INTO reminder_events (reminder_id, at, type) SELECT id, now(), type"
                + " FROM reminders, unnest(array['registered', 'published', 'received', 'sent']) type"
                + " WHERE user_id = 'plan-retention'");
        database.execute("ANALYZE reminders");
        database.execute("ANALYZE reminder_events");

        for (String delete : retentionDeletes()) {
            // the plan retention runs on (plan_cache_mode = force_generic_plan), for any cut-off
            QueryPlan plan = QueryPlan.of(pool.query("EXPLAIN (GENERIC_PLAN, FORMAT JSON) " + delete).execute()
                    .await().indefinitely());

            System.out.printf("retention's generic plan: %s on %s%n", plan.nodeTypes(), plan.indexes());
            assertThat(plan.seqScanned()).as(delete).isEmpty();
            assertThat(plan.indexes()).as(delete).contains("reminders_pkey", "reminder_events_reminder_id_idx")
                    .containsAnyOf("reminders_finished_updated_at_idx", "reminders_failed_fire_at_id_idx");
        }
        database.execute("DELETE FROM reminder_events WHERE reminder_id IN"
                + " (SELECT id FROM reminders WHERE user_id = 'plan-retention')");
        database.execute("DELETE FROM reminders WHERE user_id = 'plan-retention'");
    }

    private static List<String> retentionDeletes() {
        return List.of(ReminderLedger.deleteFinishedPastRetention(SweepService.RETENTION_BATCH).sql(),
                ReminderLedger.deleteFailedPastRetention(SweepService.RETENTION_BATCH).sql());
    }
}
