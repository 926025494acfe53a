package dev.tickler.testing;

import java.util.Map;

import io.quarkus.test.junit.QuarkusTestProfile;

/**
 * Tracing on, its spans kept in memory ({@link InMemorySpans}) instead of exported: the application's own tracing
 * configuration with only the SDK switched on, as an operator would.
 */
public class TracingProfile implements QuarkusTestProfile {

    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of("quarkus.otel.sdk.disabled", "false");
    }
}
