package dev.tickler.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusIntegrationTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.RestAssured;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.pgclient.PgBuilder;

import dev.tickler.security.Tenants;
import dev.tickler.testing.PostgresResource;

/**
 * Acknowledge latency of the push receiver with the claim in place: every push claims a real handed_off row in
 * Postgres, and the deliveries it starts run against a notifier that answers at once. The packaged application runs
 * in a JVM of its own, as in production, with the collector and heap set by {@code quarkus.test.arg-line} in the
 * {@code benchmark} profile; this JVM holds only the load generator, the notifier and the queue emulator. Offered
 * load is open-loop at fixed rates (latency counted from the moment a push was due, so a stall is not hidden), then
 * closed-loop at saturation. Prints its figures, with the CPU each process spent per push ({@link ProcessCpu}); run
 * with {@code mvn -Pbenchmark verify -Dit.test=PushAcknowledgeBenchmarkIT -Dtest=none
 * -Dsurefire.failIfNoSpecifiedTests=false}.
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
            return List.of(new TestResourceEntry(PostgresResource.class), ProductionLikeProfile.queue(),
                    new TestResourceEntry(FastNotifier.class));
        }

        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("tickler.push.tokens", ProductionLikeProfile.PUSH_TOKEN,
                    "tickler.api.keys", ProductionLikeProfile.API_KEY,
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
    private SeededRows rows;
    private LoadGenerator load;
    private final MachineHiccups hiccups = new MachineHiccups();

    @Test
    void acknowledgeLatencyAtFixedRatesAndAtSaturation() throws Exception {
        Vertx vertx = Vertx.vertx();
        pool = Pool.newInstance(PgBuilder.pool().connectingTo(PostgresResource.reactiveUrl()).using(vertx).build());
        rows = SeededRows.due(pool, 450_000, Tenants.DEFAULT);
        load = new LoadGenerator(vertx);
        try {
            load.openLoop(1_000, WARM_UP, this::push);
            awaitDeliveriesSettled();
            System.out.println("push acknowledge benchmark, claim in Postgres, deliveries to the notifier running");
            measure();
            awaitDeliveriesSettled();
            FastNotifier.stall();
            System.out.println("push acknowledge benchmark, claim in Postgres, deliveries parked behind a stalled notifier");
            measure();
            long claimed = pool.preparedQuery("SELECT count(*) FROM reminders WHERE template = 'bench' AND state <> 'handed_off'")
                    .execute().await().indefinitely().iterator().next().getLong(0);
            assertThat(claimed).isEqualTo(rows.taken());
        } finally {
            hiccups.close();
            load.close();
            vertx.close().toCompletionStage().toCompletableFuture().join();
        }
    }

    private void measure() throws Exception {
        for (int rate : RATES) {
            hiccups.restart();
            ProcessCpu cpu = ProcessCpu.reading();
            LoadGenerator.Result result = load.openLoop(rate, RUN, this::push);
            System.out.println(result.describe("offered " + rate + "/s")
                    + (load.failureReasons().isEmpty() ? "" : " " + load.failureReasons()));
            System.out.println("    " + cpu.perOperationSince(result.latencies().length));
            System.out.println("    " + hiccups.describe());
            assertThat(result.failures()).isZero();
        }
        hiccups.restart();
        ProcessCpu cpu = ProcessCpu.reading();
        LoadGenerator.Result saturated = load.closedLoop(SATURATION_CONCURRENCY, RUN, Math.min(rows.left(), 2_000_000),
                this::push);
        System.out.println(saturated.describe("saturation, " + SATURATION_CONCURRENCY + " in flight"));
        System.out.println("    " + cpu.perOperationSince(saturated.latencies().length));
        System.out.println("    " + hiccups.describe());
        assertThat(saturated.failures()).isZero();
    }

    private void awaitDeliveriesSettled() {
        await().atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(200)).until(() -> pool
                .preparedQuery("SELECT count(*) FROM reminders WHERE template = 'bench' AND state = 'delivering'")
                .execute().await().indefinitely().iterator().next().getLong(0) == 0);
    }

    private Future<Integer> push() {
        return load.post(RestAssured.port, "/q/" + ProductionLikeProfile.PUSH_TOKEN + "/reminders", rows.nextMessage());
    }
}
