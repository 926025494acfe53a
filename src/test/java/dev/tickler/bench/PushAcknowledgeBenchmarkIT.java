package dev.tickler.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusIntegrationTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.RestAssured;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import io.vertx.pgclient.PgBuilder;

import dev.tickler.testing.InfraiEmulatorResource;
import dev.tickler.testing.PostgresResource;

/**
 * Acknowledge latency of the push receiver with the claim in place: every push claims a real handed_off row in
 * Postgres, and the deliveries it starts run against a notifier that answers at once. The packaged application runs
 * in a JVM of its own, as in production, with the collector and heap set by {@code quarkus.test.arg-line} in the
 * {@code benchmark} profile; this JVM holds only the load generator, the notifier and the queue emulator. Offered
 * load is open-loop at fixed rates (latency counted from the moment a push was due, so a stall is not hidden), then
 * closed-loop at saturation. Prints its figures; run with {@code mvn -Pbenchmark verify
 * -Dit.test=PushAcknowledgeBenchmarkIT -Dtest=none -Dsurefire.failIfNoSpecifiedTests=false}.
 */
@QuarkusIntegrationTest
@Tag("benchmark")
@TestProfile(PushAcknowledgeBenchmarkIT.ProductionLike.class)
class PushAcknowledgeBenchmarkIT {

    /**
     * The production profile with only what a deployment would set: a push token, the emulator as the queue, the
     * fast notifier, no sweep on this instance. The backlog limit is lifted so that the stalled-notifier run measures
     * the receiver rather than its 503s.
     */
    public static class ProductionLike implements QuarkusTestProfile {
        @Override
        public boolean disableGlobalTestResources() {
            return true;
        }

        @Override
        public List<TestResourceEntry> testResources() {
            return List.of(new TestResourceEntry(PostgresResource.class), new TestResourceEntry(InfraiEmulatorResource.class),
                    new TestResourceEntry(FastNotifier.class));
        }

        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("tickler.push.tokens", InfraiEmulatorResource.PUSH_TOKEN,
                    "tickler.api.keys", "benchmark-key",
                    "tickler.sweep.enabled", "false",
                    "tickler.notify.timeout", "PT5M",
                    "tickler.delivery.max-backlog", "1000000");
        }
    }

    /** Long enough for the JIT to compile the push path; a native executable would not need it. */
    private static final Duration WARM_UP = Duration.ofSeconds(60);
    private static final Duration RUN = Duration.ofSeconds(10);
    private static final int[] RATES = { 500, 1_000, 2_000 };
    private static final int SATURATION_CONCURRENCY = 64;

    private Pool pool;
    private final MachineHiccups hiccups = new MachineHiccups();

    private final Map<String, Integer> reasons = new ConcurrentHashMap<>();
    private final AtomicLong nextId = new AtomicLong();
    private long firstId;
    private long lastId;

    @Test
    void acknowledgeLatencyAtFixedRatesAndAtSaturation() throws Exception {
        Vertx vertx = Vertx.vertx();
        pool = Pool.newInstance(PgBuilder.pool().connectingTo(PostgresResource.reactiveUrl()).using(vertx).build());
        seed(450_000);
        HttpClient client = vertx.createHttpClient(new HttpClientOptions().setKeepAlive(true),
                new PoolOptions().setHttp1MaxSize(256));
        try {
            openLoop(vertx, 1_000, WARM_UP, () -> push(client));
            awaitDeliveriesSettled();
            System.out.println("push acknowledge benchmark, claim in Postgres, deliveries to the notifier running");
            measure(vertx, client);
            awaitDeliveriesSettled();
            FastNotifier.stall();
            System.out.println("push acknowledge benchmark, claim in Postgres, deliveries parked behind a stalled notifier");
            measure(vertx, client);
            long claimed = pool.preparedQuery("SELECT count(*) FROM reminders WHERE template = 'bench' AND state <> 'handed_off'")
                    .execute().await().indefinitely().iterator().next().getLong(0);
            assertThat(claimed).isEqualTo(nextId.get() - firstId);
        } finally {
            hiccups.close();
            client.close();
            vertx.close().toCompletionStage().toCompletableFuture().join();
        }
    }

    private void measure(Vertx vertx, HttpClient client) throws Exception {
        for (int rate : RATES) {
            hiccups.restart();
            Result result = openLoop(vertx, rate, RUN, () -> push(client));
            System.out.println(result.describe("offered " + rate + "/s") + (reasons.isEmpty() ? "" : " " + reasons));
            System.out.println("    " + hiccups.describe());
            assertThat(result.failures()).isZero();
        }
        hiccups.restart();
        Result saturated = closedLoop(SATURATION_CONCURRENCY, RUN, () -> push(client));
        System.out.println(saturated.describe("saturation, " + SATURATION_CONCURRENCY + " in flight"));
        System.out.println("    " + hiccups.describe());
        assertThat(saturated.failures()).isZero();
    }

    private void awaitDeliveriesSettled() {
        await().atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(200)).until(() -> pool
                .preparedQuery("SELECT count(*) FROM reminders WHERE template = 'bench' AND state = 'delivering'")
                .execute().await().indefinitely().iterator().next().getLong(0) == 0);
    }

    /** Rows the pushes claim, one each, far in the future so nothing else touches them. */
    private void seed(int rows) {
        var range = pool.preparedQuery("INSERT INTO reminders (user_id, channel, template, fire_at, state, version)"
                        + " SELECT 'bench_' || g, 'email', 'bench', now() + interval '30 days' + g * interval '1 second',"
                        + " 'handed_off', 0 FROM generate_series(1, $1) g RETURNING id")
                .execute(Tuple.of(rows)).await().atMost(Duration.ofMinutes(2));
        long min = Long.MAX_VALUE;
        long max = Long.MIN_VALUE;
        for (var row : range) {
            min = Math.min(min, row.getLong(0));
            max = Math.max(max, row.getLong(0));
        }
        firstId = min;
        nextId.set(min);
        lastId = max;
    }

    private Result openLoop(Vertx vertx, int rate, Duration length, Supplier<Future<Integer>> request) throws Exception {
        int total = (int) (rate * length.toSeconds());
        long[] latencies = new long[total];
        AtomicInteger done = new AtomicInteger();
        AtomicInteger failures = new AtomicInteger();
        CompletableFuture<Void> finished = new CompletableFuture<>();
        long start = System.nanoTime();
        AtomicInteger sent = new AtomicInteger();
        long intervalNanos = 1_000_000_000L / rate;
        vertx.setPeriodic(1, timer -> {
            long dueCount = Math.min(total, (System.nanoTime() - start) / intervalNanos + 1);
            while (sent.get() < dueCount) {
                int index = sent.getAndIncrement();
                long dueAt = start + index * intervalNanos;
                request.get().onComplete(outcome -> {
                    latencies[index] = System.nanoTime() - dueAt;
                    if (outcome.failed() || outcome.result() != 200) {
                        failures.incrementAndGet();
                        reasons.merge(outcome.failed() ? outcome.cause().toString() : "HTTP " + outcome.result(), 1, Integer::sum);
                    }
                    if (done.incrementAndGet() == total) {
                        finished.complete(null);
                    }
                });
            }
            if (sent.get() >= total) {
                vertx.cancelTimer(timer);
            }
        });
        finished.get();
        return new Result(latencies, failures.get(), System.nanoTime() - start);
    }

    private Result closedLoop(int concurrency, Duration length, Supplier<Future<Integer>> request) throws Exception {
        long[] latencies = new long[(int) Math.min(lastId - nextId.get() + 1, 2_000_000)];
        AtomicInteger done = new AtomicInteger();
        AtomicInteger failures = new AtomicInteger();
        AtomicInteger running = new AtomicInteger(concurrency);
        CompletableFuture<Void> finished = new CompletableFuture<>();
        long start = System.nanoTime();
        long end = start + length.toNanos();
        Runnable[] next = new Runnable[1];
        next[0] = () -> {
            if (System.nanoTime() >= end || done.get() >= latencies.length - concurrency) {
                if (running.decrementAndGet() == 0) {
                    finished.complete(null);
                }
                return;
            }
            long sentAt = System.nanoTime();
            request.get().onComplete(outcome -> {
                int index = done.getAndIncrement();
                latencies[index] = System.nanoTime() - sentAt;
                if (outcome.failed() || outcome.result() != 200) {
                    failures.incrementAndGet();
                    reasons.merge(outcome.failed() ? outcome.cause().toString() : "HTTP " + outcome.result(), 1, Integer::sum);
                }
                next[0].run();
            });
        };
        for (int i = 0; i < concurrency; i++) {
            next[0].run();
        }
        finished.get();
        return new Result(Arrays.copyOf(latencies, done.get()), failures.get(), System.nanoTime() - start);
    }

    private Future<Integer> push(HttpClient client) {
        long id = nextId.getAndIncrement();
        if (id > lastId) {
            throw new IllegalStateException("the benchmark ran out of seeded rows");
        }
        Buffer body = Buffer.buffer("{\"reminder_id\":" + id + ",\"version\":0}");
        RequestOptions options = new RequestOptions().setMethod(HttpMethod.POST).setHost("127.0.0.1")
                .setPort(RestAssured.port).setURI("/q/" + InfraiEmulatorResource.PUSH_TOKEN + "/reminders")
                .putHeader("Content-Type", "application/json");
        return client.request(options)
                .compose(request -> request.send(body))
                .compose(response -> response.body().map(ignored -> response.statusCode()));
    }

    private record Result(long[] latencies, int failures, long elapsedNanos) {

        String describe(String label) {
            long[] sorted = latencies.clone();
            Arrays.sort(sorted);
            double seconds = elapsedNanos / 1e9;
            return String.format("%-32s pushes %7d  acked/s %7.0f  p50 %6.2f ms  p99 %6.2f ms  max %7.2f ms  failures %d",
                    label, sorted.length, sorted.length / seconds, millis(sorted, 0.50), millis(sorted, 0.99),
                    sorted.length == 0 ? 0 : sorted[sorted.length - 1] / 1e6, failures);
        }

        private static double millis(long[] sorted, double quantile) {
            if (sorted.length == 0) {
                return 0;
            }
            return sorted[(int) Math.min(sorted.length - 1, Math.ceil(quantile * sorted.length) - 1)] / 1e6;
        }
    }
}
