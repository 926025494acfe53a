package dev.tickler.testing;

import java.util.Map;

import io.quarkus.test.junit.QuarkusTestProfile;

/**
 * Tracing on, its spans kept in memory ({@link InMemorySpans}) instead of exported: the application's own tracing
 * configuration with the SDK switched on, as an operator would, and finished spans handed to the exporter every
 * 20 ms instead of every 5 s, which each wait for a span would otherwise sit out.
 */
public class TracingProfile implements QuarkusTestProfile {

    @Override
    public Map<String, String> getConfigOverrides() {
        return OwnApplication.withoutApiDocument(
                Map.of("quarkus.otel.sdk.disabled", "false", "quarkus.otel.bsp.schedule.delay", "PT0.02S"));
    }
}
