package dev.tickler.testing;

import java.util.Map;

import io.quarkus.test.junit.QuarkusTestProfile;

/** The gauges that query Postgres and Infrai refresh every second instead of every 15. */
public class FastGaugesProfile implements QuarkusTestProfile {

    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of("tickler.metrics.refresh", "1s");
    }
}
