package dev.tickler.sweep;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;

import dev.tickler.testing.Api;
import dev.tickler.testing.Database;

/** The hand-off query reads about as many rows as it hands off: the partial index on pending rows does the work. */
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

        JsonObject plan = explain(horizon, 2000);
        List<JsonObject> nodes = new ArrayList<>();
        collect(plan.getJsonObject("Plan"), nodes);

        assertThat(nodes).extracting(node -> node.getString("Node Type")).doesNotContain("Seq Scan");
        JsonObject scan = nodes.stream().filter(node -> "reminders_pending_fire_at_idx".equals(node.getString("Index Name")))
                .findFirst().orElseThrow(() -> new AssertionError("the partial index is not used: " + plan.encodePrettily()));
        long rowsRead = scan.getLong("Actual Rows") + scan.getLong("Rows Removed by Filter", 0L);
        System.out.printf("hand-off query: %d due of %d+ parked rows, %d read through %s in %.3f ms%n", due,
                100_000, rowsRead, scan.getString("Index Name"), plan.getDouble("Execution Time"));
        assertThat(rowsRead).isBetween(due, due + 5);
    }

    private JsonObject explain(Instant horizon, int batchSize) {
        Object result = pool.preparedQuery("EXPLAIN (ANALYZE, FORMAT JSON) " + SweepRepository.DUE_PARKED)
                .execute(Tuple.of(horizon.atOffset(ZoneOffset.UTC), batchSize))
                .await().indefinitely().iterator().next().getValue(0);
        JsonArray plans = result instanceof JsonArray array ? array : new JsonArray(result.toString());
        return plans.getJsonObject(0);
    }

    private static void collect(JsonObject node, List<JsonObject> into) {
        into.add(node);
        JsonArray children = node.getJsonArray("Plans");
        if (children != null) {
            for (int i = 0; i < children.size(); i++) {
                collect(children.getJsonObject(i), into);
            }
        }
    }
}
