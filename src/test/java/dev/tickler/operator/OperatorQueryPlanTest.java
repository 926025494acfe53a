package dev.tickler.operator;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.Set;
import java.util.function.Consumer;
import java.util.stream.IntStream;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;

import dev.tickler.db.IndexesOnly;
import dev.tickler.ledger.ReminderState;
import dev.tickler.reminder.ListPosition;
import dev.tickler.testing.Database;
import dev.tickler.testing.QueryPlan;

/**
 * Beside many finished and waiting reminders, the overview's time-bound figures and the dead-letter search and
 * redrive read partial indexes, never the whole table. The rows and the statistics they need live in a transaction
 * that is rolled back, so that no other test's plan is judged on what this one left behind.
 */
@QuarkusTest
class OperatorQueryPlanTest {

    private static final ReminderFilter FAILED =
            new ReminderFilter(Set.of(ReminderState.FAILED), null, null, null, null, null, null, null, null, null,
                    null);

    @Inject
    Database database;

    @Inject
    Pool pool;

    @Test
    void overviewFiguresAndDeadLetterQueriesReadPartialIndexesOnly() {
        besideFinishedAndWaitingReminders(connection -> {
            Instant now = Instant.now();
            ListPosition somewhere = new ListPosition(now, 1);
            for (OperatorReminderRepository.Statement statement : new OperatorReminderRepository.Statement[] {
                    OperatorReminderRepository.searchStatement(FAILED, null, 51),
                    OperatorReminderRepository.searchStatement(FAILED, somewhere, 51),
                    OperatorReminderRepository.pickToRedriveStatement(ReminderFilter.ALL, null, 500),
                    OperatorReminderRepository.pickToRedriveStatement(ReminderFilter.ALL, somewhere, 500) }) {
                // without ANALYZE: the batches a redrive picks are planned, not locked
                QueryPlan plan = QueryPlan.explain(connection, "FORMAT JSON", statement.sql(),
                        values(statement.parameters()));

                assertThat(plan.nodeTypes()).as(statement.sql()).doesNotContain("Seq Scan");
                assertThat(plan.indexes()).as(statement.sql()).contains("reminders_failed_fire_at_id_idx");
            }

            // last, as OverviewRepository reads them: held to the indexes for the rest of this transaction
            execute(connection, IndexesOnly.HOLD);
            QueryPlan overview = QueryPlan.explain(connection, "ANALYZE, BUFFERS, FORMAT JSON",
                    OverviewRepository.FIGURES, values(OverviewRepository.parameters(now)));

            System.out.printf("overview figures beside 40,000 finished and waiting reminders: %.3f ms, indexes %s%n",
                    overview.executionMillis(), overview.indexes());
            assertThat(overview.nodeTypes()).doesNotContain("Seq Scan");
            assertThat(overview.indexes()).contains("reminders_finished_updated_at_idx",
                    "reminders_pending_fire_at_id_idx", "reminders_handed_off_fire_at_idx");
        });
    }

    /** 20,000 sent three days ago, 20,000 handed off for ten days ahead and 300 dead letters, analysed, then gone. */
    private void besideFinishedAndWaitingReminders(Consumer<SqlConnection> check) {
        SqlConnection connection = pool.getConnection().await().indefinitely();
        try {
            execute(connection, "BEGIN");
            execute(connection, "INSERT INTO reminders (user_id, channel, template, fire_at, state, sent_at, updated_at)"
                    + " SELECT 'plan-operator', 'email', 'sent' || g, now() - interval '3 days' - g * interval '1 second',"
                    + " 'sent', now() - interval '3 days', now() - interval '3 days' FROM generate_series(1, 20000) g");
            execute(connection, "INSERT INTO reminders (user_id, channel, template, fire_at, state)"
                    + " SELECT 'plan-operator', 'email', 'waiting' || g, now() + interval '10 days' + g * interval '1 second',"
                    + " 'handed_off' FROM generate_series(1, 20000) g");
            execute(connection, "INSERT INTO reminders (user_id, channel, template, fire_at, state, last_error, updated_at)"
                    + " SELECT 'plan-operator', 'email', 'failed' || g, now() - g * interval '1 minute', 'failed',"
                    + " 'HTTP 400', now() - interval '1 day' FROM generate_series(1, 300) g");
            execute(connection, "ANALYZE reminders");
            check.accept(connection);
        } finally {
            execute(connection, "ROLLBACK");
            connection.close().await().indefinitely();
        }
    }

    private static void execute(SqlConnection connection, String sql) {
        connection.query(sql).execute().await().indefinitely();
    }

    private static Object[] values(Tuple tuple) {
        return IntStream.range(0, tuple.size()).mapToObj(tuple::getValue).toArray();
    }
}
