package dev.tickler.bench;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.quarkus.test.junit.QuarkusTestProfile;

import dev.tickler.testing.InfraiEmulatorResource;
import dev.tickler.testing.PostgresResource;

/**
 * The packaged application as a deployment runs it, for the benchmarks: its own PostgreSQL and queue emulator, a
 * notifier that answers at once, one API key, the push token, no scheduled sweep on this instance. The production
 * profile refuses short or example secrets, so these are long and the suite's own.
 */
public class ProductionLikeProfile implements QuarkusTestProfile {

    public static final String API_KEY = "benchmark-api-key-4c1e7f0a9d";
    public static final String PUSH_TOKEN = "benchmark-push-token-9b27e3d5";

    /** The queue emulator, pushing to the receiver under {@link #PUSH_TOKEN}. */
    public static TestResourceEntry queue() {
        return new TestResourceEntry(InfraiEmulatorResource.class,
                Map.of(InfraiEmulatorResource.PUSH_TOKEN_ARG, PUSH_TOKEN));
    }

    @Override
    public boolean disableGlobalTestResources() {
        return true;
    }

    @Override
    public List<TestResourceEntry> testResources() {
        return List.of(new TestResourceEntry(PostgresResource.class),
                queue(), new TestResourceEntry(FastNotifier.class));
    }

    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of("tickler.api.keys", API_KEY, "tickler.push.tokens", PUSH_TOKEN,
                "tickler.sweep.enabled", "false");
    }

    /**
     * Against a provider with this quota, taking 100 ms a call: signed pushes on the pushed queue, and the pace set just
     * under the quota, so a benchmark measures the sending, not the learning of the quota.
     */
    abstract static class PacedUnderQuota extends ProductionLikeProfile {

        private final int quotaPerSecond;

        PacedUnderQuota(int quotaPerSecond) {
            this.quotaPerSecond = quotaPerSecond;
        }

        @Override
        public List<TestResourceEntry> testResources() {
            return List.of(new TestResourceEntry(PostgresResource.class), queue(),
                    new TestResourceEntry(QuotaNotifier.class, Map.of("quota-per-second",
                            Integer.toString(quotaPerSecond), "latency-millis", "100")));
        }

        @Override
        public Map<String, String> getConfigOverrides() {
            Map<String, String> config = new HashMap<>(super.getConfigOverrides());
            config.put("tickler.push.signing-secret", InfraiEmulatorResource.SIGNING_SECRET);
            config.put("tickler.infrai.queues.push", InfraiEmulatorResource.PUSHED_QUEUE);
            config.put("tickler.notify.rate-limit", Integer.toString(quotaPerSecond - 1));
            return config;
        }
    }
}
