package dev.tickler.delivery;

import static dev.tickler.testing.Api.createdId;
import static dev.tickler.testing.Api.publishedFor;
import static dev.tickler.testing.Api.pushReminderAt;
import static dev.tickler.testing.NotifierResource.notifier;
import static dev.tickler.testing.Push.message;
import static dev.tickler.testing.Push.push;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;

import dev.tickler.emulator.PublishedMessage;
import dev.tickler.testing.Api;
import dev.tickler.testing.CapturedLogs;
import dev.tickler.testing.InfraiEmulatorResource;
import dev.tickler.testing.NotifierStandIn.Reply;
import dev.tickler.testing.OwnApplication;

/**
 * What SIGTERM does to deliveries in flight: the drain runs here directly, in an application of its own (the
 * profile), because afterwards this instance claims nothing more.
 */
@QuarkusTest
@TestProfile(ShutdownTest.OwnInstance.class)
class ShutdownTest {

    private static final Duration DEADLINE = Duration.ofSeconds(15);

    public static class OwnInstance implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return OwnApplication.withoutApiDocument(Map.of("tickler.notify.timeout", "PT20S"));
        }
    }

    @Inject
    DeliveryShutdown shutdown;

    @Test
    void sendsThatFinishWithinTheGraceAreSettledAndTheRestAreReleased() {
        Map<String, Object> quick = pushReminderAt(Instant.now());
        Map<String, Object> slow = pushReminderAt(Instant.now());
        notifier().script(user(quick), Reply.okAfter(Duration.ofSeconds(1)));
        notifier().script(user(slow), Reply.okAfter(Duration.ofSeconds(6)));
        try (CapturedLogs logs = CapturedLogs.start()) {
            long quickId = createdId(quick);
            long slowId = createdId(slow);
            await().atMost(DEADLINE).until(() -> !notifier().receivedFor(user(quick)).isEmpty()
                    && !notifier().receivedFor(user(slow)).isEmpty());

            long started = System.nanoTime();
            shutdown.drain(Duration.ofSeconds(3));

            assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(5));
            Api.get(quickId).body("state", equalTo("sent"));
            Api.get(slowId).body("state", equalTo("handed_off"));
            assertThat(publishedFor(slowId, InfraiEmulatorResource.PUSHED_QUEUE))
                    .extracting(PublishedMessage::idempotencyKey)
                    .containsExactly("reminder:" + slowId + ":0:0", "reminder:" + slowId + ":0:1");
            push(message(slowId, 0)).statusCode(503);

            // the send that was cut loose still gets its 200, but its claim is gone: settling it changes nothing
            await().atMost(DEADLINE).until(() -> notifier().answeredFor(user(slow)).size() == 1);
            assertThat(notifier().answeredFor(user(slow)).get(0).status()).isEqualTo(200);
            String lostClaim = "claim on reminder " + slowId + " (version 0) was no longer held when settling";
            await().atMost(DEADLINE).until(() -> logs.messages().stream().anyMatch(line -> line.contains(lostClaim)));
            Api.get(slowId).body("state", equalTo("handed_off")).body("attempts", equalTo(0));
            assertThat(notifier().receivedFor(user(slow))).hasSize(1);
        }
    }

    private static String user(Map<String, Object> body) {
        return (String) body.get("user_id");
    }
}
