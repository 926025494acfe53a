package dev.tickler.bench;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.quarkus.test.junit.QuarkusTestProfile;

import dev.tickler.testing.InfraiEmulatorResource;
import dev.tickler.testing.PostgresResource;

/**
 * The packaged application as a deployment runs it, for the benchmarks: its own PostgreSQL and queue emulator, a
 * notifier that answers at once, one API key, the push token, no scheduled sweep on this instance.
 */
public class ProductionLikeProfile implements QuarkusTestProfile {

    public static final String API_KEY = "benchmark-key";

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
        return Map.of("tickler.api.keys", API_KEY, "tickler.push.tokens", InfraiEmulatorResource.PUSH_TOKEN,
                "tickler.sweep.enabled", "false");
    }

    /** The resources of a benchmark against a provider with a quota: {@link QuotaNotifier} instead of a fast one. */
    static List<TestResourceEntry> againstQuota(int quotaPerSecond, long latencyMillis) {
        return List.of(new TestResourceEntry(PostgresResource.class),
                new TestResourceEntry(InfraiEmulatorResource.class),
                new TestResourceEntry(QuotaNotifier.class, Map.of("quota-per-second", Integer.toString(quotaPerSecond),
                        "latency-millis", Long.toString(latencyMillis))));
    }

    /**
     * The settings given, with signed pushes on the pushed queue and the pace set just under the provider's quota, so
     * the benchmark measures the sending, not the learning of the quota.
     */
    static Map<String, String> pushedAndPacedUnder(Map<String, String> settings, int quotaPerSecond) {
        Map<String, String> config = new HashMap<>(settings);
        config.put("tickler.push.signing-secret", InfraiEmulatorResource.SIGNING_SECRET);
        config.put("tickler.infrai.queues.push", InfraiEmulatorResource.PUSHED_QUEUE);
        config.put("tickler.notify.rate-limit", Integer.toString(quotaPerSecond - 1));
        return config;
    }
}
