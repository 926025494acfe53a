package dev.tickler.testing;

import java.util.Map;

import io.quarkus.test.junit.QuarkusTestProfile;

/**
 * Tracing on, its spans kept in memory ({@link InMemorySpans}) instead of exported: the application's own tracing
 * configuration with the SDK switched on, as an operator would, and finished spans handed to the exporter every
 * 20 ms instead of every 5 s, which each wait for a span would otherwise sit out. The gauges refresh every second.
 *
 * <p>{@code ServingStartTest} shares the application, because every profile costs the suite a build and a start; it
 * looks at the instance before its first request, so it has to be the profile's first class, which it is while its
 * name sorts first (Quarkus's class orderer runs the classes of a profile by name). Run second, it fails.
 */
public class TracingProfile implements QuarkusTestProfile {

    @Override
    public Map<String, String> getConfigOverrides() {
        return OwnApplication.withoutApiDocument(Map.of(
                "quarkus.otel.sdk.disabled", "false", "quarkus.otel.bsp.schedule.delay", "PT0.02S",
                "tickler.metrics.refresh", "1s"));
    }
}
