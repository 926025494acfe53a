package dev.tickler.delivery;

import static dev.tickler.testing.Api.createdId;
import static dev.tickler.testing.Api.publishedFor;
import static dev.tickler.testing.Api.reminderAt;
import static dev.tickler.testing.InfraiEmulatorResource.emulator;
import static dev.tickler.testing.NotifierResource.notifier;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;

import dev.tickler.testing.Api;
import dev.tickler.testing.InfraiEmulatorResource;
import dev.tickler.testing.Metrics;
import dev.tickler.testing.NotifierStandIn.Reply;
import dev.tickler.testing.PollingAndSweepProfile;

/** tickler.delivery.mode=poll: consume, claim and deliver through the push path's code, then ack. */
@QuarkusTest
@TestProfile(PollingAndSweepProfile.class)
class PollModeTest {

    private static final Duration DEADLINE = Duration.ofSeconds(15);

    @Test
    void dueReminderIsConsumedDeliveredAndAcknowledged() {
        Map<String, Object> body = reminderAt(Instant.now());
        long id = createdId(body);

        await().atMost(DEADLINE).untilAsserted(() -> Api.get(id).body("state", equalTo("sent")));

        assertThat(notifier().receivedFor((String) body.get("user_id"))).hasSize(1);
        await().atMost(DEADLINE).until(() -> emulator().stats(Api.DEFAULT_QUEUE).inFlightCount() == 0);
        assertThat(emulator().stats(Api.DEFAULT_QUEUE).ackedCount()).isPositive();
    }

    @Test
    void ackAfterTheLeaseWasLostIsWarnedAndCounted() throws Exception {
        double before = Metrics.value("tickler_poll_ack_not_in_flight_total");
        Map<String, Object> body = reminderAt(Instant.now());
        String user = (String) body.get("user_id");
        // the provider answers only once this test has acked: the application's ack comes after the send settles
        CountDownLatch acked = new CountDownLatch(1);
        notifier().script(user, Reply.okWhenReleased(acked));
        long id = createdId(body);
        await().atMost(DEADLINE).until(() -> !notifier().receivedFor(user).isEmpty());

        // the message's lease is gone before the application acks: as if the handler had been slower than 300 s
        String messageId = publishedFor(id).get(0).messageId();
        ackAsSomeoneElse(messageId);
        acked.countDown();

        await().atMost(DEADLINE).untilAsserted(() -> Api.get(id).body("state", equalTo("sent")));
        await().atMost(DEADLINE).until(() -> Metrics.value("tickler_poll_ack_not_in_flight_total") == before + 1);
    }

    private static void ackAsSomeoneElse(String messageId) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(URI.create(emulator().baseUrl() + "/v1/queue/ack"))
                .header("Authorization", "Bearer " + InfraiEmulatorResource.API_KEY)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(
                        "{\"queue\": \"" + Api.DEFAULT_QUEUE + "\", \"receipt_handle\": \"" + messageId + "\"}"))
                .build();
        HttpResponse<String> response = HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).isEqualTo(200);
    }
}
