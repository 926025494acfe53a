package dev.tickler.bench;

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
}
