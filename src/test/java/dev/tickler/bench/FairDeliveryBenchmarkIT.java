package dev.tickler.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.http.HttpClient;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Map;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusIntegrationTest;
import io.quarkus.test.junit.TestProfile;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import io.vertx.pgclient.PgBuilder;

import dev.tickler.testing.PostgresResource;

/**
 * Fair delivery between tenants (docs/delivery.md, "Fair delivery"): tenant A's {@value #CAMPAIGN} reminders due in one
 * second and {@value #FEW} more due a second later, against a provider that takes {@value #QUOTA_PER_SECOND} calls a
 * second. Run twice in one application: first the few are A's own (one tenant: they wait behind the campaign), then
 * they are tenant B's (they take turns with it). Prints how late the few were sent and how long the campaign took; run
 * with {@code mvn -Pbenchmark verify -Dit.test=FairDeliveryBenchmarkIT -Dtest=none -Dsurefire.failIfNoSpecifiedTests=false}.
 */
@QuarkusIntegrationTest
@Tag("benchmark")
@TestProfile(FairDeliveryBenchmarkIT.TwoTenants.class)
class FairDeliveryBenchmarkIT {

    private static final int CAMPAIGN = 10_000;
    private static final int FEW = 20;
    private static final int QUOTA_PER_SECOND = 200;
    private static final int BATCH = 1_000;
    private static final String CAMPAIGN_KEY = "tenant-a-campaign-key-0001";
    private static final String A_OTHER_KEY = "tenant-a-password-reset-key-0002";
    private static final String B_KEY = "tenant-b-password-reset-key-0003";

    /** Production settings, keys of two tenants (A with two), and the provider's quota as the configured pace. */
    public static class TwoTenants extends ProductionLikeProfile.PacedUnderQuota {

        public TwoTenants() {
            super(QUOTA_PER_SECOND);
        }

        @Override
        public Map<String, String> getConfigOverrides() {
            Map<String, String> config = super.getConfigOverrides();
            config.put("tickler.api.keys", "a/campaigns=" + CAMPAIGN_KEY + ",a/accounts=" + A_OTHER_KEY
                    + ",b/accounts=" + B_KEY);
            return config;
        }
    }

    @Test
    void anotherTenantsFewAreSentWithinSecondsOfTheirTimeWhileACampaignDrains() throws Exception {
        Vertx vertx = Vertx.vertx();
        Pool pool = Pool.newInstance(PgBuilder.pool().connectingTo(PostgresResource.reactiveUrl()).using(vertx).build());
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        try {
            Outcome oneTenant = run(http, pool, "one", A_OTHER_KEY);
            Outcome twoTenants = run(http, pool, "two", B_KEY);

            System.out.printf("fair delivery, %d calls/s: %-42s %-42s%n", QUOTA_PER_SECOND,
                    "the few are A's (one tenant)", "the few are B's (two tenants)");
            System.out.printf("  the few's lateness, p50 / max (s)     %-42s %-42s%n", oneTenant.fewLateness(),
                    twoTenants.fewLateness());
            System.out.printf("  of which the push's, p50 / max (s)    %-42s %-42s%n", oneTenant.fewPushLateness(),
                    twoTenants.fewPushLateness());
            System.out.printf("  the campaign's drain (s)              %-42.1f %-42.1f%n", oneTenant.campaignDrain(),
                    twoTenants.campaignDrain());
            System.out.printf("  notifier calls / answered 429          %-42s %-42s%n", oneTenant.calls(),
                    twoTenants.calls());
            assertThat(twoTenants.fewMax()).isLessThan(5.0);
        } finally {
            vertx.close().toCompletionStage().toCompletableFuture().join();
        }
    }

    /** One round: A's campaign due at T, the few due at T + 1 s with {@code fewKey}; waits until all are sent. */
    private Outcome run(HttpClient http, Pool pool, String round, String fewKey) throws Exception {
        long callsBefore = QuotaNotifier.calls.get();
        long limitedBefore = QuotaNotifier.rateLimited.get();
        Instant due = Instant.now().plusSeconds(20).truncatedTo(ChronoUnit.SECONDS);
        String campaign = "campaign_" + round;
        String few = "password_reset_" + round;
        int created = 0;
        for (int b = 0; b < CAMPAIGN / BATCH; b++) {
            created += BatchRegistration.post(http, CAMPAIGN_KEY, batch(round + "-a-" + b, campaign, BATCH, due));
        }
        created += BatchRegistration.post(http, fewKey, batch(round + "-few", few, FEW, due.plusSeconds(1)));
        assertThat(created).isEqualTo(CAMPAIGN + FEW);
        System.out.printf("round %s: %d of A due at %s, %d due a second later%n", round, CAMPAIGN, due, FEW);

        await().atMost(Duration.between(Instant.now(), due.plusSeconds(CAMPAIGN / QUOTA_PER_SECOND * 4L)))
                .pollInterval(Duration.ofMillis(500)).until(() -> unsent(pool, campaign, few) == 0);
        Row fewLateness = pool.preparedQuery("SELECT extract(epoch FROM percentile_disc(0.5) WITHIN GROUP"
                        + " (ORDER BY sent_at - fire_at)) AS p50, extract(epoch FROM max(sent_at - fire_at)) AS max,"
                        + " extract(epoch FROM percentile_disc(0.5) WITHIN GROUP (ORDER BY claimed_at - fire_at))"
                        + " AS push_p50, extract(epoch FROM max(claimed_at - fire_at)) AS push_max"
                        + " FROM reminders WHERE template = $1").execute(Tuple.of(few))
                .await().indefinitely().iterator().next();
        double drain = pool.preparedQuery("SELECT extract(epoch FROM max(sent_at) - min(fire_at)) FROM reminders"
                        + " WHERE template = $1").execute(Tuple.of(campaign))
                .await().indefinitely().iterator().next().getDouble(0);
        return new Outcome(fewLateness.getDouble("p50"), fewLateness.getDouble("max"),
                fewLateness.getDouble("push_p50"), fewLateness.getDouble("push_max"), drain,
                QuotaNotifier.calls.get() - callsBefore, QuotaNotifier.rateLimited.get() - limitedBefore);
    }

    /** The few's lateness when sent and, within it, when their pushes arrived (the queue's part, not the turns'). */
    record Outcome(double fewP50, double fewMax, double fewPushP50, double fewPushMax, double campaignDrain,
            long notifierCalls, long answered429) {

        String fewLateness() {
            return String.format("%.1f / %.1f", fewP50, fewMax);
        }

        String fewPushLateness() {
            return String.format("%.1f / %.1f", fewPushP50, fewPushMax);
        }

        String calls() {
            return notifierCalls + " / " + answered429;
        }
    }

    private static String batch(String userPrefix, String template, int size, Instant fireAt) {
        JsonArray items = new JsonArray();
        for (int i = 0; i < size; i++) {
            items.add(new JsonObject().put("user_id", userPrefix + "-" + i).put("channel", "push")
                    .put("template", template).put("fire_at", fireAt.toString()));
        }
        return new JsonObject().put("items", items).encode();
    }

    private static long unsent(Pool pool, String campaign, String few) {
        return pool.preparedQuery("SELECT count(*) FROM reminders WHERE template IN ($1, $2) AND state <> 'sent'")
                .execute(Tuple.of(campaign, few)).await().indefinitely().iterator().next()
                .getLong(0);
    }
}
