package dev.tickler.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusIntegrationTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.RestAssured;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.pgclient.PgBuilder;

import dev.tickler.security.Tenants;
import dev.tickler.testing.PostgresResource;

/**
 * What retention costs the push path (docs/contract.md#retention): pushes at 1,000/s, each a real claim, for rounds
 * without and with a sweep that deletes 100,000 finished reminders past their keep-time, alternating. Prints each
 * round's latency, the sweep's report, and the p99 of the pushes due while the sweep ran beside the same windows of the
 * rounds without; run with {@code mvn -Pbenchmark verify -Dit.test=RetentionUnderLoadBenchmarkIT -Dtest=none
 * -Dsurefire.failIfNoSpecifiedTests=false}.
 */
@QuarkusIntegrationTest
@Tag("benchmark")
@TestProfile(RetentionUnderLoadBenchmarkIT.SeededRowsNotReconciled.class)
class RetentionUnderLoadBenchmarkIT {

    /**
     * The seeded rows are due from before the run starts and are pushed by the benchmark, not the queue; the sweeps it
     * starts must not take the last rounds' rows for lost pushes and publish them again.
     */
    public static class SeededRowsNotReconciled extends ProductionLikeProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            Map<String, String> config = new HashMap<>(super.getConfigOverrides());
            config.put("tickler.sweep.grace", "PT1H");
            return config;
        }
    }

    private static final String API_KEY = ProductionLikeProfile.API_KEY;
    private static final int FINISHED = 100_000;
    private static final int RATE = 1_000;
    private static final Duration ROUND = Duration.ofSeconds(75);
    private static final int ROUNDS = 3;
    /** The sweep starts this far into a round, so that the push load is steady before and after it. */
    private static final Duration SWEEP_AFTER = Duration.ofSeconds(5);

    @Test
    void pushLatencyWithAndWithoutRetentionDeletingAHundredThousandRows() throws Exception {
        Vertx vertx = Vertx.vertx();
        Pool pool = Pool.newInstance(PgBuilder.pool().connectingTo(PostgresResource.reactiveUrl()).using(vertx).build());
        // the warm-up and every round claim rows of their own
        SeededRows rows = SeededRows.due(pool, 60_000 + ROUNDS * 2 * RATE * (int) ROUND.toSeconds() + 10_000,
                Tenants.DEFAULT);
        String push = "/q/" + ProductionLikeProfile.PUSH_TOKEN + "/reminders";
        try (LoadGenerator load = new LoadGenerator(vertx)) {
            load.openLoop(RATE, Duration.ofSeconds(60), () -> load.post(RestAssured.port, push, rows.nextMessage()));
            sweep();
            System.out.println("push latency at " + RATE + "/s, with and without retention deleting " + FINISHED
                    + " finished reminders");
            List<long[]> quietWindows = new ArrayList<>();
            List<long[]> sweepWindows = new ArrayList<>();
            for (int round = 1; round <= ROUNDS; round++) {
                LoadGenerator.Result quiet = load.openLoop(RATE, ROUND,
                        () -> load.post(RestAssured.port, push, rows.nextMessage()));
                System.out.println("  " + quiet.describe("round " + round + ", no retention"));
                insertFinished(pool);
                long roundStart = System.nanoTime();
                CompletableFuture<TimedSweep> sweep = CompletableFuture.supplyAsync(() -> timedSweep(roundStart),
                        CompletableFuture.delayedExecutor(SWEEP_AFTER.toMillis(), TimeUnit.MILLISECONDS));
                LoadGenerator.Result busy = load.openLoop(RATE, ROUND,
                        () -> load.post(RestAssured.port, push, rows.nextMessage()));
                TimedSweep timed = sweep.get();
                long[] during = timed.window(busy.latencies());
                long[] sameWindowQuiet = timed.window(quiet.latencies());
                quietWindows.add(sameWindowQuiet);
                sweepWindows.add(during);
                System.out.println("  " + busy.describe("round " + round + ", retention") + "  sweep: "
                        + timed.report().getLong("deleted") + " deleted in " + timed.report().getLong("duration_ms")
                        + " ms");
                System.out.printf("    while the sweep ran: p99 %.2f ms (%d pushes); same window without: p99 %.2f ms%n",
                        p99Millis(during), during.length, p99Millis(sameWindowQuiet));
                assertThat(timed.report().getLong("deleted")).isGreaterThanOrEqualTo(FINISHED);
                // the vacuum after the deletes is Postgres's (autovacuum, throttled by its cost delay), not retention's;
                // left to chance it would fall into the next round without retention
                System.out.printf("    VACUUM and CHECKPOINT after the deletes, between rounds: %d ms%n", vacuum(pool));
                assertThat(quiet.failures() + busy.failures()).isZero();
            }
            long[] during = concat(sweepWindows);
            long[] without = concat(quietWindows);
            System.out.printf("all rounds, pushes due while a sweep deleted: p99 %.2f ms (%d pushes); the same windows"
                    + " without retention: p99 %.2f ms (%d pushes): %+.0f %%%n", p99Millis(during), during.length,
                    p99Millis(without), without.length, 100 * (p99Millis(during) / p99Millis(without) - 1));
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
        // as rows a month old would be: vacuumed long ago, so that no autovacuum of these inserts falls into a round
        vacuum(pool);
    }

    /** VACUUM ANALYZE, then a checkpoint so that the next round does not write out this one's pages; in ms. */
    private static long vacuum(Pool pool) {
        long started = System.nanoTime();
        pool.query("VACUUM ANALYZE reminders").execute().await().indefinitely();
        pool.query("CHECKPOINT").execute().await().indefinitely();
        return (System.nanoTime() - started) / 1_000_000;
    }

    /** A sweep run from {@code SWEEP_AFTER} into a round: its report and when it ran, from the round's start. */
    private record TimedSweep(JsonObject report, long fromNanos, long toNanos) {

        /** The latencies of the pushes that were due while the sweep ran (open loop: one every 1/RATE s). */
        long[] window(long[] latencies) {
            int from = (int) Math.min(latencies.length, fromNanos * RATE / 1_000_000_000L);
            int to = (int) Math.min(latencies.length, Math.max(from + 1, toNanos * RATE / 1_000_000_000L));
            return Arrays.copyOfRange(latencies, from, to);
        }
    }

    private static TimedSweep timedSweep(long roundStart) {
        long from = System.nanoTime() - roundStart;
        JsonObject report = sweep();
        return new TimedSweep(report, from, System.nanoTime() - roundStart);
    }

    private static double p99Millis(long[] latencies) {
        long[] sorted = latencies.clone();
        Arrays.sort(sorted);
        return sorted.length == 0 ? 0 : sorted[(int) Math.ceil(0.99 * sorted.length) - 1] / 1e6;
    }

    private static long[] concat(List<long[]> windows) {
        return windows.stream().flatMapToLong(Arrays::stream).toArray();
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
