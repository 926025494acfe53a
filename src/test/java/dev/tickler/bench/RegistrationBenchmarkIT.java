package dev.tickler.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusIntegrationTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.RestAssured;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;


/**
 * How fast product services can register: single POSTs from 16 connections, closed-loop, unique bodies, once for
 * reminders parked beyond the week (no publish) and once for reminders handed off at creation (published to the
 * queue emulator, then marked); then batches of 1,000 parked reminders from 4 connections. The packaged
 * application runs in a JVM of its own with the image's flags. Prints each phase's rate and latency; run with
 * {@code mvn -Pbenchmark verify -Dit.test=RegistrationBenchmarkIT -Dtest=none -Dsurefire.failIfNoSpecifiedTests=false}.
 */
@QuarkusIntegrationTest
@Tag("benchmark")
@TestProfile(ProductionLikeProfile.class)
class RegistrationBenchmarkIT {

    private static final String API_KEY = ProductionLikeProfile.API_KEY;
    /** Two and a half minutes: on two cores the JIT's C2 thread still took 70 % of a core 80 s after start. */
    private static final Duration WARM_UP = Duration.ofSeconds(150);
    private static final Duration RUN = Duration.ofSeconds(20);
    private static final int CONNECTIONS = 16;
    private static final int BATCH_CONNECTIONS = 4;
    private static final int BATCH = 1_000;

    private final AtomicLong unique = new AtomicLong();

    @Test
    void singleAndBatchRegistrationRates() throws Exception {
        Vertx vertx = Vertx.vertx();
        try (LoadGenerator load = new LoadGenerator(vertx)) {
            load.closedLoop(CONNECTIONS, WARM_UP, 10_000_000, () -> single(load, Duration.ofDays(30)));
            load.closedLoop(CONNECTIONS, WARM_UP.dividedBy(3), 10_000_000, () -> single(load, Duration.ofHours(2)));

            report(load, "single POST, parked", load.closedLoop(CONNECTIONS, RUN, 10_000_000,
                    () -> single(load, Duration.ofDays(30))), 1);
            report(load, "single POST, published", load.closedLoop(CONNECTIONS, RUN, 10_000_000,
                    () -> single(load, Duration.ofHours(2))), 1);
            load.closedLoop(BATCH_CONNECTIONS, WARM_UP.dividedBy(3), 1_000_000, () -> batch(load));
            report(load, "batch of " + BATCH + ", parked", load.closedLoop(BATCH_CONNECTIONS, RUN, 1_000_000,
                    () -> batch(load)), BATCH);
        } finally {
            vertx.close().toCompletionStage().toCompletableFuture().join();
        }
    }

    private static void report(LoadGenerator load, String label, LoadGenerator.Result result, int perRequest) {
        System.out.println(result.describe(label) + String.format("  reminders/s %.0f",
                perRequest * result.latencies().length / result.elapsedSeconds())
                + (load.failureReasons().isEmpty() ? "" : " " + load.failureReasons()));
        assertThat(result.failures()).isZero();
    }

    private Future<Integer> single(LoadGenerator load, Duration ahead) {
        return load.post(RestAssured.port, "/v1/reminders", body(ahead).encode(), API_KEY);
    }

    private Future<Integer> batch(LoadGenerator load) {
        JsonArray items = new JsonArray();
        for (int i = 0; i < BATCH; i++) {
            items.add(body(Duration.ofDays(30)));
        }
        return load.post(RestAssured.port, "/v1/reminders/batch", new JsonObject().put("items", items).encode(),
                API_KEY);
    }

    private JsonObject body(Duration ahead) {
        return new JsonObject().put("user_id", "bench-" + unique.incrementAndGet()).put("channel", "email")
                .put("template", "registration").put("fire_at", Instant.now().plus(ahead).toString())
                .put("data", new JsonObject().put("plan", "pro").put("days_left", 3));
    }
}
