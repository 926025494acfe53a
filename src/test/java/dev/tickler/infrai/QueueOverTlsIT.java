package dev.tickler.infrai;

import static dev.tickler.testing.Api.createdId;
import static dev.tickler.testing.Api.publishedFor;
import static dev.tickler.testing.Api.reminderAt;
import static dev.tickler.testing.InfraiEmulatorResource.emulator;
import static dev.tickler.testing.NotifierResource.notifier;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusIntegrationTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;

import dev.tickler.testing.Api;
import dev.tickler.testing.InfraiEmulatorResource;
import dev.tickler.testing.NotifierResource;
import dev.tickler.testing.PostgresResource;

/**
 * The packaged application against a queue API served over TLS, as Infrai's is, with a certificate that only the
 * application JVM's trust store holds (-Djavax.net.ssl.trustStore, docs/deploying.md): the hand-off's publish (a plain
 * Vert.x client) and poll mode's consume and ack (the REST client) all go over it. Integration test only: the JVM of
 * a {@code @QuarkusTest} is the test's own, and its trust store is not this test's to change.
 */
@QuarkusIntegrationTest
@TestProfile(QueueOverTlsIT.QueueOverTls.class)
class QueueOverTlsIT {

    private static final Duration DEADLINE = Duration.ofSeconds(20);

    @Test
    void reminderIsPublishedConsumedDeliveredAndAcknowledgedOverTls() {
        assertThat(emulator().baseUrl()).startsWith("https://");
        Map<String, Object> body = reminderAt(Instant.now().plusSeconds(1));
        long id = createdId(body);

        await().atMost(DEADLINE).untilAsserted(() -> Api.get(id).body("state", equalTo("sent")));

        assertThat(publishedFor(id)).hasSize(1);
        assertThat(notifier().receivedFor((String) body.get("user_id"))).hasSize(1);
        await().atMost(DEADLINE).until(() -> emulator().stats(Api.DEFAULT_QUEUE).ackedCount() == 1);
    }

    /** Poll mode, so that the REST client's calls carry the deliveries too; the queue over TLS. */
    public static class QueueOverTls implements QuarkusTestProfile {

        @Override
        public boolean disableGlobalTestResources() {
            return true;
        }

        @Override
        public List<TestResourceEntry> testResources() {
            return List.of(new TestResourceEntry(PostgresResource.class),
                    new TestResourceEntry(InfraiEmulatorResource.class, Map.of(InfraiEmulatorResource.TLS_ARG, "true")),
                    new TestResourceEntry(NotifierResource.class));
        }

        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("tickler.delivery.mode", "poll", "tickler.delivery.poll-interval", "PT0.2S");
        }
    }
}
