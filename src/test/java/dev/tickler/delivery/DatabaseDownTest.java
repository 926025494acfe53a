package dev.tickler.delivery;

import static dev.tickler.testing.Push.message;
import static dev.tickler.testing.Push.push;
import static org.hamcrest.Matchers.equalTo;

import java.util.Map;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;

import dev.tickler.testing.Ports;

/** With Postgres out of reach the receiver answers 503, so the queue delivers the message again later. */
@QuarkusTest
@TestProfile(DatabaseDownTest.NoDatabase.class)
class DatabaseDownTest {

    public static class NoDatabase implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            int closedPort = Ports.freePort();
            return Map.of(
                    "quarkus.datasource.reactive.url", "postgresql://127.0.0.1:" + closedPort + "/postgres",
                    "quarkus.flyway.migrate-at-start", "false");
        }
    }

    @Test
    void pushIsAnsweredServiceUnavailable() {
        push(message(8801, 0)).statusCode(503)
                .header("Retry-After", "5")
                .contentType("application/problem+json")
                .body("type", equalTo("urn:tickler:problem:unavailable"))
                .body("status", equalTo(503));
    }

    @Test
    void malformedPushIsStillABadRequest() {
        push("{}").statusCode(400);
    }
}
