package dev.tickler.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusIntegrationTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.RestAssured;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;

import dev.tickler.testing.InfraiEmulatorResource;

/**
 * What one reminder costs PostgreSQL over its whole life, in steady traffic against a table already the size a
 * deployment's would be: every reminder registered over the API, handed off to the queue emulator at once, pushed back
 * when due a few seconds later, claimed, sent to a notifier that answers at once, settled, its events written; the
 * scheduled sweep deletes as many finished reminders past their keep-time as the traffic finishes, the gauges refresh
 * every 15 s, autovacuum runs as it would. Prints Postgres's CPU per reminder (the server's processes, autovacuum
 * included), the statements that spent it, and how the tables and indexes grew ({@link PostgresCost}).
 *
 * <p>{@code -Dbench.rows} (100,000), {@code -Dbench.rate} (registrations per second, 300), {@code -Dbench.minutes}
 * (the measured stretch, 2; the figures in docs/scaling.md are from longer runs where it says so). Run with
 * {@code mvn -B -ntp -Pbenchmark verify -Dit.test=ReminderLifeCostBenchmarkIT -Dtest=none
 * -Dsurefire.failIfNoSpecifiedTests=false -Dbench.rows=1000000}.
 */
@QuarkusIntegrationTest
@Tag("benchmark")
@TestProfile(ReminderLifeCostBenchmarkIT.SteadyTraffic.class)
class ReminderLifeCostBenchmarkIT {

    /** A deployment's one sweeping instance: pushes signed, the sweep (and with it retention) every 10 s. */
    public static class SteadyTraffic implements QuarkusTestProfile {
        @Override
        public boolean disableGlobalTestResources() {
            return true;
        }

        @Override
        public List<TestResourceEntry> testResources() {
            return List.of(new TestResourceEntry(MeasuredPostgres.class), ProductionLikeProfile.queue(),
                    new TestResourceEntry(FastNotifier.class));
        }

        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("tickler.api.keys", ProductionLikeProfile.API_KEY,
                    "tickler.push.tokens", ProductionLikeProfile.PUSH_TOKEN,
                    "tickler.push.signing-secret", InfraiEmulatorResource.SIGNING_SECRET,
                    "tickler.infrai.queues.push", InfraiEmulatorResource.PUSHED_QUEUE,
                    "tickler.sweep.enabled", "true",
                    "tickler.sweep.every", "10s");
        }
    }

    /** Long enough for the JIT to compile the paths, and for the first reminders to come back and be sent. */
    private static final Duration WARM_UP = Duration.ofSeconds(60);
    private static final Duration RUN = Duration.ofSeconds((long) (60 * Double.parseDouble(System.getProperty("bench.minutes", "2"))));
    /** How far ahead each reminder is due: handed off at registration, pushed back by the queue this much later. */
    private static final Duration DUE_IN = Duration.ofSeconds(5);

    private final AtomicLong unique = new AtomicLong();

    @Test
    void postgresCpuPerReminderOverItsWholeLife() throws Exception {
        int rate = MeasuredPostgres.RATE;
        Vertx vertx = Vertx.vertx();
        try (LoadGenerator load = new LoadGenerator(vertx);
                PostgresCost cost = new PostgresCost(MeasuredPostgres.database())) {
            load.openLoop(rate, WARM_UP, () -> register(load));
            cost.start();
            Instant from = Instant.now();
            ProcessCpu appCpu = ProcessCpu.reading();
            LoadGenerator.Result run = load.openLoop(rate, RUN, () -> register(load));
            Instant to = Instant.now();
            long registered = run.latencies().length;
            String app = appCpu.perOperationSince(registered).replace("per push", "per reminder");
            String figures = cost.describe(registered);
            await().atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofSeconds(1)).until(() -> MeasuredPostgres.count(
                    MeasuredPostgres.database(), "SELECT count(*) FROM reminders WHERE template = 'life'"
                            + " AND state <> 'sent'") == 0);
            long sentInRun = MeasuredPostgres.count(MeasuredPostgres.database(), "SELECT count(*) FROM reminders"
                    + " WHERE template = 'life' AND sent_at BETWEEN '" + from + "' AND '" + to + "'");
            long deletedSeeded = MeasuredPostgres.ROWS - MeasuredPostgres.count(MeasuredPostgres.database(),
                    "SELECT count(*) FROM reminders WHERE template = 'seeded'");
            System.out.printf("reminder life cost: %,d rows seeded, %d registrations/s for %d s (%d registered, %d sent"
                    + " in the same stretch; %,d seeded reminders deleted by retention since the start), retention %s%n",
                    MeasuredPostgres.ROWS, rate, RUN.toSeconds(), registered, sentInRun, deletedSeeded,
                    MeasuredPostgres.retention());
            System.out.println(run.describe("registrations").replace("pushes", "POSTs  "));
            System.out.println("    " + app);
            System.out.print(figures);
            assertThat(run.failures()).isZero();
        } finally {
            vertx.close().toCompletionStage().toCompletableFuture().join();
        }
    }

    private Future<Integer> register(LoadGenerator load) {
        JsonObject body = new JsonObject().put("user_id", "life-" + unique.incrementAndGet()).put("channel", "push")
                .put("template", "life").put("fire_at", Instant.now().plus(DUE_IN).toString())
                .put("data", new JsonObject().put("plan", "pro").put("days_left", 3));
        return load.post(RestAssured.port, "/v1/reminders", body.encode(), ProductionLikeProfile.API_KEY);
    }
}
