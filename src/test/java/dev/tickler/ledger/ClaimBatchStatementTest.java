package dev.tickler.ledger;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.UUID;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.smallrye.mutiny.Multi;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;

import dev.tickler.db.UnnestedStatement;
import dev.tickler.security.Tenants;
import dev.tickler.testing.Api;
import dev.tickler.testing.Database;
import dev.tickler.testing.QueryPlan;

/**
 * The push path's two batched writes, the claim and the send, are each one statement over arrays of the batch's
 * parameters: every write is answered at its own position, a repeat inside the batch claims nothing, a stale claim
 * settles nothing, each changed row gets its events, and whatever the statistics say Postgres reaches the rows through
 * the primary key, one at a time.
 */
@QuarkusTest
class ClaimBatchStatementTest {

    private static final OffsetDateTime LEASE = OffsetDateTime.of(2099, 1, 1, 0, 0, 0, 0, ZoneOffset.UTC);
    /** The send as it is with callbacks on for the rows' tenant: the outbox insert must leave the plan alone. */
    private static final String SETTLE_SENT = ReminderLedger.settleSent(CallbackOutbox.of(List.of(Tenants.DEFAULT)));

    @Inject
    Database database;

    @Inject
    Pool pool;

    @Test
    void eachClaimIsAnsweredAtItsPositionAndARepeatInTheSameBatchClaimsNothing() {
        List<Long> ids = database.insertParked(Api.newUser(), 3, Instant.now().minusSeconds(5));
        long first = ids.get(0);
        long second = ids.get(1);
        long wrongVersion = ids.get(2);
        OffsetDateTime now = OffsetDateTime.now(ZoneOffset.UTC).truncatedTo(ChronoUnit.MICROS);

        List<Long> claimed = UnnestedStatement.of(pool, ReminderLedger.CLAIM, ReminderLedger.CLAIM_COLUMNS,
                row -> row.getLong("id"), null).apply(List.of(
                        claim(first, 0, now), claim(first, 0, now), claim(Long.MAX_VALUE, 0, now),
                        claim(second, 0, now), claim(wrongVersion, 7, now)))
                .await().atMost(Duration.ofSeconds(10));

        assertThat(claimed.subList(0, 2)).as("the repeat of the first claim").containsExactlyInAnyOrder(first, null);
        assertThat(claimed.subList(2, 5)).containsExactly(null, second, null);
        assertThat(database.count("SELECT count(*) FROM reminder_events WHERE reminder_id = $1 AND type = 'received'",
                first)).isEqualTo(1);
        assertThat(database.count("SELECT count(*) FROM reminder_events WHERE reminder_id = $1", wrongVersion))
                .isZero();
        assertThat(database.text("SELECT state FROM reminders WHERE id = $1", wrongVersion)).isEqualTo("pending");
        assertThat(database.text("SELECT detail->>'transport' FROM reminder_events WHERE reminder_id = $1", second))
                .isEqualTo("push");
    }

    @Test
    void sendsSettleOnlyTheClaimsTheyHoldEachWithItsAttemptAndSentEvents() {
        List<Long> ids = database.insertParked(Api.newUser(), 2, Instant.now().minusSeconds(5));
        long held = ids.get(0);
        long takenOver = ids.get(1);
        OffsetDateTime now = OffsetDateTime.now(ZoneOffset.UTC).truncatedTo(ChronoUnit.MICROS);
        UnnestedStatement.of(pool, ReminderLedger.CLAIM, ReminderLedger.CLAIM_COLUMNS, row -> true, false)
                .apply(List.of(claim(held, 0, now), claim(takenOver, 0, now))).await().atMost(Duration.ofSeconds(10));

        List<Boolean> settled = UnnestedStatement.of(pool, SETTLE_SENT, ReminderLedger.SEND_COLUMNS,
                row -> true, false).apply(List.of(send(held, now, now), send(takenOver, now.plusSeconds(1), now)))
                .await().atMost(Duration.ofSeconds(10));

        assertThat(settled).containsExactly(true, false);
        assertThat(database.text("SELECT state FROM reminders WHERE id = $1", held)).isEqualTo("sent");
        assertThat(database.text("SELECT state FROM reminders WHERE id = $1", takenOver)).isEqualTo("delivering");
        assertThat(database.text("SELECT string_agg(type || ' ' || detail::text, ', ' ORDER BY id) FROM reminder_events"
                + " WHERE reminder_id = $1", held)).isEqualTo(
                        "received {\"transport\": \"push\"}, attempt {\"status\": 200, \"attempt\": 1, \"latency_ms\": 12}, sent {}");
        assertThat(database.count("SELECT count(*) FROM reminder_events WHERE reminder_id = $1", takenOver))
                .isEqualTo(1);
    }

    @Test
    void bothReachEachRowThroughThePrimaryKeyEvenWhenTheStatisticsMissTheRowsBeingDelivered() {
        String user = Api.newUser();
        List<Long> ids = database.insertParked(user, 20_000, Instant.now().plus(Duration.ofDays(30)));
        try {
            // statistics taken while nothing was being delivered, then, as under load, thousands of claims they miss
            database.execute("ANALYZE reminders");
            database.execute("UPDATE reminders SET state = 'delivering', lease_until = $1 WHERE id = ANY($2)", LEASE,
                    ids.subList(0, 5_000).toArray(new Long[0]));
            OffsetDateTime now = OffsetDateTime.now(ZoneOffset.UTC).truncatedTo(ChronoUnit.MICROS);
            List<Tuple> claims = ids.subList(10_000, 10_100).stream().map(id -> claim(id, 0, now)).toList();
            List<Tuple> sends = ids.subList(0, 100).stream().map(id -> send(id, now, now)).toList();

            assertReachesRemindersThroughThePrimaryKeyOnly(ReminderLedger.CLAIM, ReminderLedger.CLAIM_COLUMNS, claims);
            assertReachesRemindersThroughThePrimaryKeyOnly(SETTLE_SENT, ReminderLedger.SEND_COLUMNS, sends);
        } finally {
            database.execute("DELETE FROM reminders WHERE user_id = $1", user);
        }
    }

    @Test
    void aConnectionSettlesOnTheGenericPlanWhateverTheSizeOfItsFirstBatches() {
        OffsetDateTime now = OffsetDateTime.now(ZoneOffset.UTC).truncatedTo(ChronoUnit.MICROS);
        // batches of one row, of no row there: a custom plan for one row looks cheaper than a generic plan for any
        assertThat(plansAfterEightBatches(ReminderLedger.CLAIM, ReminderLedger.CLAIM_COLUMNS,
                claim(Long.MAX_VALUE, 0, now))).isEqualTo("5 custom, 3 generic");
        assertThat(plansAfterEightBatches(SETTLE_SENT, ReminderLedger.SEND_COLUMNS, send(Long.MAX_VALUE, now, now)))
                .isEqualTo("5 custom, 3 generic");
    }

    /**
     * How the connection that ran the statement eight times planned it (pg_prepared_statements); the statement marked
     * as this call's, so that no earlier run on the connection counts.
     */
    private String plansAfterEightBatches(String batched, List<Class<?>> columns, Tuple write) {
        String statement = batched + " /* " + UUID.randomUUID() + " */";
        Tuple arrays = UnnestedStatement.arraysOf(List.of(write), columns);
        return pool.withConnection(connection -> Multi.createFrom().range(0, 8)
                .onItem().transformToUniAndConcatenate(i -> connection.preparedQuery(statement).execute(arrays))
                .collect().last()
                .chain(() -> connection.preparedQuery("SELECT custom_plans || ' custom, ' || generic_plans"
                        + " || ' generic' FROM pg_prepared_statements WHERE statement = $1")
                        .execute(Tuple.of(statement)))
                .map(rows -> rows.iterator().next().getString(0)))
                .await().atMost(Duration.ofSeconds(10));
    }

    /** Both the plan for these very arrays and the generic plan Postgres may settle on after a few executions. */
    private void assertReachesRemindersThroughThePrimaryKeyOnly(String statement, List<Class<?>> columns,
            List<Tuple> batch) {
        Tuple arrays = UnnestedStatement.arraysOf(batch, columns);
        Object[] values = new Object[arrays.size()];
        for (int i = 0; i < values.length; i++) {
            values[i] = arrays.getValue(i);
        }
        for (QueryPlan plan : List.of(QueryPlan.explain(pool, "FORMAT JSON", statement, values),
                QueryPlan.explain(pool, "GENERIC_PLAN, FORMAT JSON", statement, new Object[values.length]))) {
            assertThat(plan.nodes().stream().filter(node -> "reminders".equals(node.getString("Relation Name"))
                    && !"ModifyTable".equals(node.getString("Node Type"))))
                    .as(plan.toString())
                    .isNotEmpty()
                    .allSatisfy(scan -> assertThat(scan.getString("Index Name")).isEqualTo("reminders_pkey"));
        }
    }

    private static Tuple claim(long id, int version, OffsetDateTime now) {
        return Tuple.of(id, version, LEASE, now, "push", now.plusSeconds(30)).addValue(null);
    }

    /** A send settling the claim made at {@code claimedAt}. */
    private static Tuple send(long id, OffsetDateTime claimedAt, OffsetDateTime now) {
        return Tuple.tuple().addValue(id).addValue(0).addValue(claimedAt).addValue(now).addValue(1).addValue("200")
                .addValue(12L).addValue(null).addValue(now);
    }
}
