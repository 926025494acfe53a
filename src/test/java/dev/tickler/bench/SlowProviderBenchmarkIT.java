package dev.tickler.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpClient;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Map;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusIntegrationTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.RestAssured;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.pgclient.PgBuilder;

import dev.tickler.testing.InfraiEmulatorResource;
import dev.tickler.testing.PostgresResource;

/**
 * A held claim keeps its lease at scale (docs/delivery.md, "Leases"): 10,000 reminders due in one second, pushed back
 * by the queue emulator, against a provider that takes {@value #QUOTA_PER_SECOND} calls a second (about 200 s of
 * sending) while every claim's lease is 30 s and the reconciler looks every 5 s. Prints how many were sent, sent twice,
 * failed and taken over, and how many lease renewals it took; run with
 * {@code mvn -Pbenchmark verify -Dit.test=SlowProviderBenchmarkIT -Dtest=none -Dsurefire.failIfNoSpecifiedTests=false}.
 */
@QuarkusIntegrationTest
@Tag("benchmark")
@TestProfile(SlowProviderBenchmarkIT.SlowProvider.class)
class SlowProviderBenchmarkIT {

    private static final int REMINDERS = 10_000;
    private static final int QUOTA_PER_SECOND = 50;
    private static final int BATCH = 1_000;

    /** Production settings, the provider's quota, a 30 s lease, and the reconcile pass every 5 s on this instance. */
    public static class SlowProvider extends ProductionLikeProfile.PacedUnderQuota {

        public SlowProvider() {
            super(QUOTA_PER_SECOND);
        }

        @Override
        public Map<String, String> getConfigOverrides() {
            Map<String, String> config = super.getConfigOverrides();
            config.put("tickler.delivery.lease", "PT30S");
            config.put("tickler.sweep.enabled", "true");
            config.put("tickler.sweep.every", "1h");
            config.put("tickler.reconcile.every", "5s");
            return config;
        }
    }

    @Test
    void tenThousandDueTogetherAgainstAFiftyASecondProviderAreEachSentOnce() throws Exception {
        Vertx vertx = Vertx.vertx();
        Pool pool = Pool.newInstance(PgBuilder.pool().connectingTo(PostgresResource.reactiveUrl()).using(vertx).build());
        try {
            Instant due = Instant.now().plusSeconds(20).truncatedTo(ChronoUnit.SECONDS);
            HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
            int created = 0;
            for (int b = 0; b < REMINDERS / BATCH; b++) {
                created += BatchRegistration.post(http, batch("slow-" + b, due));
            }
            assertThat(created).isEqualTo(REMINDERS);
            Duration minimum = Duration.ofSeconds(REMINDERS / QUOTA_PER_SECOND);
            System.out.printf("slow provider: %d due at %s, %d calls/s: at least %d s of sending against a 30 s lease%n",
                    REMINDERS, due, QUOTA_PER_SECOND, minimum.toSeconds());

            Instant deadline = due.plus(minimum.multipliedBy(3));
            long sent = 0;
            long nextProgress = System.nanoTime();
            while (Instant.now().isBefore(deadline) && (sent = count(pool, "state IN ('sent', 'failed')")) < REMINDERS) {
                if (System.nanoTime() >= nextProgress && Instant.now().isAfter(due)) {
                    nextProgress = System.nanoTime() + 20_000_000_000L;
                    System.out.printf("  %3d s after due: %d settled, %d calls, %d sent twice, %d taken over; %s%n",
                            Duration.between(due, Instant.now()).toSeconds(), sent, QuotaNotifier.calls.get(),
                            QuotaNotifier.duplicates.get(), takenOver(pool), metric("tickler_delivery_held"));
                }
                Thread.sleep(200);
            }
            long failed = count(pool, "state = 'failed'");
            double drain = pool.query("SELECT extract(epoch FROM max(sent_at) - min(fire_at)) FROM reminders"
                    + " WHERE template = 'slow'").execute().await().indefinitely().iterator().next().getDouble(0);
            System.out.printf("slow provider: %d sent, %d sent twice, %d failed, %d taken over by the reconciler, in"
                    + " %.1f s (minimum %d s); %d notifier calls, %d answered 429; %.0f lease renewals%n",
                    count(pool, "state = 'sent'"), QuotaNotifier.duplicates.get(), failed, takenOver(pool), drain,
                    minimum.toSeconds(), QuotaNotifier.calls.get(), QuotaNotifier.rateLimited.get(),
                    metric("tickler_delivery_lease_renewals_total"));
            assertThat(count(pool, "state = 'sent'")).isEqualTo(REMINDERS);
            assertThat(QuotaNotifier.duplicates.get()).isZero();
            assertThat(failed).isZero();
        } finally {
            vertx.close().toCompletionStage().toCompletableFuture().join();
        }
    }

    private static String batch(String prefix, Instant fireAt) {
        JsonArray items = new JsonArray();
        for (int i = 0; i < BATCH; i++) {
            items.add(new JsonObject().put("user_id", prefix + "-" + i).put("channel", "push").put("template", "slow")
                    .put("fire_at", fireAt.toString()));
        }
        return new JsonObject().put("items", items).encode();
    }

    private static long takenOver(Pool pool) {
        return pool.query("SELECT count(*) FROM reminder_events WHERE type = 'reconciled'").execute()
                .await().indefinitely().iterator().next().getLong(0);
    }

    private static long count(Pool pool, String condition) {
        return pool.query("SELECT count(*) FROM reminders WHERE template = 'slow' AND " + condition).execute()
                .await().indefinitely().iterator().next().getLong(0);
    }

    /** A sample from the application's metrics, 0 when it is not exported. */
    private static double metric(String name) {
        String page = RestAssured.given().port(InfraiEmulatorResource.managementPort()).get("/q/metrics").asString();
        return page.lines().filter(line -> line.startsWith(name + " ")).mapToDouble(
                line -> Double.parseDouble(line.substring(name.length() + 1).trim())).findFirst().orElse(0);
    }
}
