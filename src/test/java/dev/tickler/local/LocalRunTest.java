package dev.tickler.local;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.anyOf;
import static org.hamcrest.Matchers.equalTo;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;

import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.Test;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfig;
import io.smallrye.config.SmallRyeConfigBuilder;

import dev.tickler.testing.OwnApplication;
import dev.tickler.testing.Ports;

/**
 * The wiring of dev mode and the local run end to end, as their main sets it up: the local stack, and the %dev profile
 * of application.properties pointing the application at it. Registered through the API, pushed back by the emulator
 * when due, delivered to the logging notifier, and sent.
 */
@QuarkusTest
@TestProfile(LocalRunTest.LocalWiring.class)
class LocalRunTest {

    private static volatile LocalStack stack;

    /** The %dev profile's settings, which the local stack's main runs with; test ports still apply. */
    public static class LocalWiring implements QuarkusTestProfile {
        @Override
        public String getConfigProfile() {
            return "dev";
        }

        @Override
        public boolean disableGlobalTestResources() {
            return true;
        }

        @Override
        public Map<String, String> getConfigOverrides() {
            return OwnApplication.withoutApiDocument(Map.of());
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
            stack = LocalStack.startOnce(appPort);
            return Map.of("quarkus.http.test-port", String.valueOf(appPort),
                    "quarkus.management.test-port", String.valueOf(Ports.freePort()));
        }

        @Override
        public void stop() {
            // the stack stops with the JVM, as it does in dev mode
        }
    }

    /**
     * The local key is the README's, so both ports listen on this machine only, and the %dev profile must say so
     * itself: Quarkus binds localhost on its own in dev mode and in tests (so this application would show nothing), but
     * the packaged local run is a normal launch, which binds every interface unless told ({@code .ci/local-run} reads
     * the sockets it really binds). Read from application.properties alone, without Quarkus's defaults.
     */
    @Test
    void bothPortsAreBoundToLoopbackByTheProfileItself() throws IOException {
        SmallRyeConfig properties = new SmallRyeConfigBuilder().withProfile("dev")
                .withSources(new PropertiesConfigSource(getClass().getResource("/application.properties")))
                .build();
        for (String host : List.of("quarkus.http.host", "quarkus.management.host")) {
            assertThat(properties.getOptionalValue(host, String.class)).as(host)
                    .hasValueSatisfying(address -> assertThat(isLoopback(address)).as(address).isTrue());
        }
    }

    @Test
    void reminderRegisteredAheadIsDeliveredWhenDue() {
        String apiKey = ConfigProvider.getConfig().getValue("tickler.api.keys", String.class);
        // a few seconds ahead; on a busy machine the push may come back before a cold application answers
        Instant fireAt = Instant.now().plusSeconds(6).truncatedTo(ChronoUnit.SECONDS);
        long id = given().header("Authorization", "Bearer " + apiKey).contentType(ContentType.JSON)
                .body(Map.of("user_id", "u_4412", "channel", "email", "template", "trial_ending",
                        "fire_at", fireAt.toString(), "data", Map.of("plan", "pro")))
                .post("/v1/reminders").then().statusCode(201)
                .body("state", anyOf(equalTo("handed_off"), equalTo("delivering"), equalTo("sent")))
                .extract().jsonPath().getLong("id");

        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> given()
                .header("Authorization", "Bearer " + apiKey).get("/v1/reminders/" + id).then()
                .body("state", equalTo("sent")));

        assertThat(stack.delivered()).anySatisfy(notification -> {
            assertThat(notification.getLong("reminder_id")).isEqualTo(id);
            assertThat(notification.getString("user_id")).isEqualTo("u_4412");
        });
    }

    private static boolean isLoopback(String literal) {
        try {
            return InetAddress.getByName(literal).isLoopbackAddress();
        } catch (UnknownHostException e) {
            throw new UncheckedIOException(e);
        }
    }
}
