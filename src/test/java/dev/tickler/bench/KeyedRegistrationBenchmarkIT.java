package dev.tickler.bench;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusIntegrationTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.RestAssured;
import io.restassured.http.ContentType;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * Keyed registration beside plain registration, in one run against the packaged application (docs/api.md, "Keyed
 * reminders and cancel by filter"): closed-loop from 16 connections, the phases taking turns round after round so that
 * the machine's noise falls on all of them; each phase once parked beyond the week (no publish) and once handed off at
 * creation. POST makes new reminders; PUT by key new keys; PUT by key with a later fire_at replaces the reminders of a
 * pool of keys (the debounce); PUT of one key's body again changes nothing. Then the cancel by filter of 10,000
 * matching reminders of one user, timed, a few times after one cold run. Prints each phase's range over the rounds;
 * run with {@code mvn -Pbenchmark verify -Dit.test=KeyedRegistrationBenchmarkIT -Dtest=none -Dsurefire.failIfNoSpecifiedTests=false}.
 */
@QuarkusIntegrationTest
@Tag("benchmark")
@TestProfile(ProductionLikeProfile.class)
class KeyedRegistrationBenchmarkIT {

    private static final String API_KEY = ProductionLikeProfile.API_KEY;
    private static final Duration WARM_UP = Duration.ofSeconds(10);
    private static final Duration PHASE = Duration.ofSeconds(8);
    private static final int ROUNDS = 3;
    private static final int CONNECTIONS = 16;
    /** The keys a debounce phase replaces in turn: far more than the connections, as many users' activity is. */
    private static final int KEY_POOL = 4_096;
    private static final int CANCELLED = 10_000;
    private static final int CANCEL_RUNS = 3;

    private final AtomicLong unique = new AtomicLong();
    private final AtomicLong nextKey = new AtomicLong();
    private final String run = Long.toString(System.nanoTime(), 36);

    @Test
    void putByKeyBesidePostAndTheCancelOfTenThousand() throws Exception {
        Vertx vertx = Vertx.vertx();
        try (LoadGenerator load = new LoadGenerator(vertx)) {
            Map<String, Supplier<Future<Integer>>> phases = new LinkedHashMap<>();
            for (Duration ahead : List.of(Duration.ofDays(30), Duration.ofHours(2))) {
                String where = ahead.toDays() > 7 ? "parked" : "published";
                String pool = "pool-" + where;
                fill(load, pool, ahead);
                phases.put("POST, new, " + where, () -> post(load, ahead));
                phases.put("PUT by key, new, " + where, () -> put(load, "new-" + unique.incrementAndGet(),
                        body("bench-" + unique.incrementAndGet(), ahead)));
                phases.put("PUT by key, later fire_at, " + where, () -> debounce(load, pool, ahead));
            }
            JsonObject kept = body("bench-same", Duration.ofDays(30));
            phases.put("PUT by key, same body", () -> put(load, "same", kept));
            for (Supplier<Future<Integer>> phase : phases.values()) {
                load.closedLoop(CONNECTIONS, WARM_UP, 10_000_000, phase);
            }
            Map<String, List<LoadGenerator.Result>> results = new LinkedHashMap<>();
            for (int round = 0; round < ROUNDS; round++) {
                for (Map.Entry<String, Supplier<Future<Integer>>> phase : phases.entrySet()) {
                    LoadGenerator.Result result = load.closedLoop(CONNECTIONS, PHASE, 10_000_000, phase.getValue());
                    assertThat(result.failures()).as(phase.getKey() + " " + load.failureReasons()).isZero();
                    results.computeIfAbsent(phase.getKey(), ignored -> new ArrayList<>()).add(result);
                }
            }
            results.forEach(KeyedRegistrationBenchmarkIT::report);
            // a first cancel compiles and prepares what the path runs; its time is printed apart
            long first = cancelTenThousand(load);
            List<Long> millis = new ArrayList<>();
            for (int i = 0; i < CANCEL_RUNS; i++) {
                millis.add(cancelTenThousand(load));
            }
            System.out.printf("cancel by filter of %,d matching reminders: %s ms, the first (cold) %d ms (each run:"
                    + " seed, then one call)%n", CANCELLED, millis, first);
        } finally {
            vertx.close().toCompletionStage().toCompletableFuture().join();
        }
    }

    private static void report(String label, List<LoadGenerator.Result> rounds) {
        double low = rounds.stream().mapToDouble(result -> result.latencies().length / result.elapsedSeconds()).min()
                .orElseThrow();
        double high = rounds.stream().mapToDouble(result -> result.latencies().length / result.elapsedSeconds()).max()
                .orElseThrow();
        System.out.printf("%-40s %,7.0f–%,7.0f /s   p99 %s ms%n", label, low, high,
                rounds.stream().map(result -> String.format("%.1f", p99(result))).toList());
    }

    private static double p99(LoadGenerator.Result result) {
        long[] sorted = result.latencies().clone();
        java.util.Arrays.sort(sorted);
        return sorted.length == 0 ? 0 : sorted[(int) Math.ceil(0.99 * sorted.length) - 1] / 1e6;
    }

    /** The debounce pool's keys, each with a reminder to replace. */
    private void fill(LoadGenerator load, String pool, Duration ahead) throws Exception {
        List<Future<Integer>> created = new ArrayList<>();
        for (int i = 0; i < KEY_POOL; i++) {
            created.add(put(load, pool + "-" + i, body("bench-" + pool + "-" + i, ahead)));
            if (created.size() == CONNECTIONS) {
                Future.all(created).toCompletionStage().toCompletableFuture().get();
                created.clear();
            }
        }
        Future.all(created).toCompletionStage().toCompletableFuture().get();
    }

    private Future<Integer> post(LoadGenerator load, Duration ahead) {
        return load.post(RestAssured.port, "/v1/reminders", body("bench-" + unique.incrementAndGet(), ahead).encode(),
                API_KEY);
    }

    /** The next key of the pool moved to a later time: a new version, handed off again when due within the week. */
    private Future<Integer> debounce(LoadGenerator load, String pool, Duration ahead) {
        long number = nextKey.incrementAndGet() % KEY_POOL;
        return put(load, pool + "-" + number, body("bench-" + pool + "-" + number, ahead.plusMillis(unique
                .incrementAndGet())));
    }

    private Future<Integer> put(LoadGenerator load, String key, JsonObject body) {
        return load.send(HttpMethod.PUT, RestAssured.port, "/v1/reminders/by-key/" + run + "-" + key, body.encode(),
                API_KEY);
    }

    private JsonObject body(String user, Duration ahead) {
        return new JsonObject().put("user_id", user).put("channel", "email").put("template", "registration")
                .put("fire_at", Instant.now().plus(ahead).toString())
                .put("data", new JsonObject().put("plan", "pro").put("days_left", 3))
                .put("tags", new JsonArray().add("bench"));
    }

    /** 10,000 parked reminders of one user, tagged, registered in batches; then the one cancel by tag, timed. */
    private long cancelTenThousand(LoadGenerator load) throws Exception {
        String user = "bench-cancel-" + unique.incrementAndGet();
        for (int from = 0; from < CANCELLED; from += 1_000) {
            JsonArray items = new JsonArray();
            for (int i = from; i < from + 1_000; i++) {
                JsonObject item = body(user, Duration.ofDays(30).plusSeconds(i)).put("tags",
                        new JsonArray().add("campaign"));
                items.add(item);
            }
            int status = load.post(RestAssured.port, "/v1/reminders/batch", new JsonObject().put("items", items)
                    .encode(), API_KEY).toCompletionStage().toCompletableFuture().get();
            assertThat(status).isEqualTo(200);
        }
        long start = System.nanoTime();
        int cancelled = given().port(RestAssured.port).header("Authorization", "Bearer " + API_KEY)
                .contentType(ContentType.JSON).body(Map.of("user_id", user, "tag", "campaign"))
                .post("/v1/reminders/cancel").then().statusCode(200).extract().jsonPath().getInt("cancelled");
        long millis = (System.nanoTime() - start) / 1_000_000;
        assertThat(cancelled).isEqualTo(CANCELLED);
        return millis;
    }
}
