package dev.tickler.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusIntegrationTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.RestAssured;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.pgclient.PgBuilder;

import dev.tickler.testing.InfraiEmulatorResource;
import dev.tickler.testing.PostgresResource;

/**
 * What retention costs the push path (SPEC §17): pushes at 1,000/s, each a real claim, for rounds without and with a
 * sweep that deletes 100,000 finished reminders past their keep-time, alternating. Prints each round's latency and the
 * sweep's report; run with {@code mvn -Pbenchmark verify -Dit.test=RetentionUnderLoadBenchmarkIT -Dtest=none
 * -Dsurefire.failIfNoSpecifiedTests=false}.
 */
@QuarkusIntegrationTest
@Tag("benchmark")
@TestProfile(RetentionUnderLoadBenchmarkIT.ProductionLike.class)
class RetentionUnderLoadBenchmarkIT {

    public static class ProductionLike implements QuarkusTestProfile {
        @Override
        public boolean disableGlobalTestResources() {
            return true;
        }

        @Override
        public List<TestResourceEntry> testResources() {
            return List.of(new TestResourceEntry(PostgresResource.class),
                    new TestResourceEntry(InfraiEmulatorResource.class), new TestResourceEntry(FastNotifier.class));
        }

        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("tickler.push.tokens", InfraiEmulatorResource.PUSH_TOKEN, "tickler.api.keys", API_KEY,
                    "tickler.sweep.enabled", "false");
        }
    }

    private static final String API_KEY = "retention-key";
    private static final int FINISHED = 100_000;
    private static final int RATE = 1_000;
    private static final Duration ROUND = Duration.ofSeconds(15);
    private static final int ROUNDS = 2;

    @Test
    void pushLatencyWithAndWithoutRetentionDeletingAHundredThousandRows() throws Exception {
        Vertx vertx = Vertx.vertx();
        Pool pool = Pool.newInstance(PgBuilder.pool().connectingTo(PostgresResource.reactiveUrl()).using(vertx).build());
        SeededRows rows = SeededRows.insert(pool, 200_000);
        String push = "/q/" + InfraiEmulatorResource.PUSH_TOKEN + "/reminders";
        try (LoadGenerator load = new LoadGenerator(vertx)) {
            load.openLoop(RATE, Duration.ofSeconds(60), () -> load.post(RestAssured.port, push, rows.nextMessage()));
            sweep();
            System.out.println("push latency at " + RATE + "/s, with and without retention deleting " + FINISHED
                    + " finished reminders");
            for (int round = 1; round <= ROUNDS; round++) {
                LoadGenerator.Result quiet = load.openLoop(RATE, ROUND,
                        () -> load.post(RestAssured.port, push, rows.nextMessage()));
                System.out.println("  " + quiet.describe("round " + round + ", no retention"));
                insertFinished(pool);
                CompletableFuture<JsonObject> report = CompletableFuture.supplyAsync(RetentionUnderLoadBenchmarkIT::sweep);
                LoadGenerator.Result busy = load.openLoop(RATE, ROUND,
                        () -> load.post(RestAssured.port, push, rows.nextMessage()));
                JsonObject sweep = report.get();
                System.out.println("  " + busy.describe("round " + round + ", retention") + "  sweep: "
                        + sweep.getLong("deleted") + " deleted in " + sweep.getLong("duration_ms") + " ms");
                assertThat(sweep.getLong("deleted")).isGreaterThanOrEqualTo(FINISHED);
                assertThat(quiet.failures() + busy.failures()).isZero();
            }
        } finally {
            vertx.close().toCompletionStage().toCompletableFuture().join();
        }
    }

    /** Sent reminders last changed 40 days ago: past the default keep-time of 30 days. */
    private static void insertFinished(Pool pool) {
        pool.query("INSERT INTO reminders (user_id, channel, template, fire_at, state, sent_at, updated_at)"
                        + " SELECT 'old_' || g || '_' || extract(epoch FROM now()), 'email', 'retention',"
                        + " now() - interval '41 days', 'sent', now() - interval '40 days', now() - interval '40 days'"
                        + " FROM generate_series(1, " + FINISHED + ") g")
                .execute().await().atMost(Duration.ofMinutes(2));
        pool.query("ANALYZE reminders").execute().await().indefinitely();
    }

    private static JsonObject sweep() {
        try {
            HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                            URI.create("http://127.0.0.1:" + RestAssured.port + "/v1/sweep"))
                    .header("Authorization", "Bearer " + API_KEY).POST(HttpRequest.BodyPublishers.noBody()).build(),
                    HttpResponse.BodyHandlers.ofString());
            return new JsonObject(response.body());
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
