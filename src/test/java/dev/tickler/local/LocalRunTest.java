package dev.tickler.local;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;

import dev.tickler.testing.Ports;

/**
 * The local run's wiring end to end, as the local build's main sets it up: registered through the API, pushed back
 * by the emulator when due, delivered to the logging notifier, and sent.
 */
@QuarkusTest
@TestProfile(LocalRunTest.LocalWiring.class)
class LocalRunTest {

    private static volatile LocalStack stack;

    public static class LocalWiring implements QuarkusTestProfile {
        @Override
        public boolean disableGlobalTestResources() {
            return true;
        }

        @Override
        public List<TestResourceEntry> testResources() {
            return List.of(new TestResourceEntry(LocalStackResource.class));
        }
    }

    public static class LocalStackResource implements QuarkusTestResourceLifecycleManager {
        @Override
        public Map<String, String> start() {
            int appPort = Ports.freePort();
            stack = LocalStack.start(appPort);
            Map<String, String> config = new HashMap<>(stack.config());
            config.put("quarkus.http.test-port", String.valueOf(appPort));
            config.put("quarkus.management.test-port", String.valueOf(Ports.freePort()));
            return config;
        }

        @Override
        public void stop() {
            // the stack stops with the JVM, as it does in dev mode
        }
    }

    @Test
    void reminderRegisteredAheadIsDeliveredWhenDue() {
        // far enough ahead that the first request of a cold application is answered before the push comes back
        Instant fireAt = Instant.now().plusSeconds(6).truncatedTo(ChronoUnit.SECONDS);
        long id = given().header("Authorization", "Bearer " + LocalStack.API_KEY).contentType(ContentType.JSON)
                .body(Map.of("user_id", "u_4412", "channel", "email", "template", "trial_ending",
                        "fire_at", fireAt.toString(), "data", Map.of("plan", "pro")))
                .post("/v1/reminders").then().statusCode(201).body("state", equalTo("handed_off"))
                .extract().jsonPath().getLong("id");

        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> given()
                .header("Authorization", "Bearer " + LocalStack.API_KEY).get("/v1/reminders/" + id).then()
                .body("state", equalTo("sent")));

        assertThat(stack.delivered()).anySatisfy(notification -> {
            assertThat(notification.getLong("reminder_id")).isEqualTo(id);
            assertThat(notification.getString("user_id")).isEqualTo("u_4412");
        });
    }
}
