package dev.tickler.delivery;

import static dev.tickler.testing.Push.message;
import static dev.tickler.testing.Push.push;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.not;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import java.util.Map;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;

import dev.tickler.testing.Api;
import dev.tickler.testing.CapturedLogs;
import dev.tickler.testing.OwnApplication;
import dev.tickler.testing.Ports;

/**
 * With Postgres out of reach the receiver answers 503, so the queue delivers the message again later, and the API
 * answers 503 too, with Retry-After: a passing outage, not a server fault.
 */
@QuarkusTest
@TestProfile(DatabaseDownTest.NoDatabase.class)
class DatabaseDownTest {

    public static class NoDatabase implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            int closedPort = Ports.freePort();
            return OwnApplication.withoutApiDocument(Map.of(
                    "quarkus.datasource.reactive.url", "postgresql://127.0.0.1:" + closedPort + "/postgres",
                    "quarkus.flyway.migrate-at-start", "false"));
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
    void registrationIsAnsweredServiceUnavailableWithOneWarningAndNoStackTrace() {
        try (CapturedLogs logs = CapturedLogs.start()) {
            Api.create(Api.reminderAt(Instant.now().plus(Duration.ofHours(1)))).statusCode(503)
                    .header("Retry-After", "5")
                    .contentType("application/problem+json")
                    .body("type", equalTo("urn:tickler:problem:unavailable"))
                    .body("detail", not(containsString("Exception")));
            Api.get(1).statusCode(503).contentType("application/problem+json");

            List<String> lines = logs.lines().stream().filter(line -> line.contains("database cannot be reached")).toList();
            assertThat(lines).hasSize(2).allSatisfy(line -> assertThat(line).doesNotContain("\tat "));
            assertThat(logs.records()).noneMatch(record -> record.getThrown() != null);
        }
    }

    @Test
    void malformedPushIsStillABadRequest() {
        push("{}").statusCode(400);
    }
}
