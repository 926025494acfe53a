package dev.tickler.delivery;

import static dev.tickler.testing.Api.createdId;
import static dev.tickler.testing.Api.reminderAt;
import static dev.tickler.testing.NotifierResource.notifier;
import static dev.tickler.testing.Push.message;
import static dev.tickler.testing.Push.push;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;

import dev.tickler.testing.Api;
import dev.tickler.testing.Metrics;

/**
 * A push for a reminder that is not due yet is acknowledged and ignored (docs/contract.md#push-receiver): the queue
 * never delivers early, so whoever learns the push URL cannot send next month's reminders today. Its email reminders go
 * to a queue the emulator does not push, so only the test's own pushes arrive.
 */
@QuarkusTest
class EarlyPushTest {

    private static final Duration DEADLINE = Duration.ofSeconds(10);

    @Test
    void aPushForAParkedReminderDueNextMonthIsIgnoredAsEarly() {
        Map<String, Object> body = reminderAt(Instant.now().plus(Duration.ofDays(30)));
        long id = createdId(body);
        double earlyBefore = Metrics.value("tickler_push_ignored_total{reason=\"early\"}");

        push(message(id, 0)).statusCode(200).body("result", equalTo("ignored")).body("reason", equalTo("early"));

        Api.get(id).body("state", equalTo("pending")).body("version", equalTo(0)).body("attempts", equalTo(0));
        assertThat(Api.events(id)).last().satisfies(event -> assertThat(event)
                .containsEntry("type", "ignored").containsEntry("reason", "early").containsEntry("version", 0));
        assertThat(Metrics.value("tickler_push_ignored_total{reason=\"early\"}")).isEqualTo(earlyBefore + 1);
        assertThat(notifier().receivedFor((String) body.get("user_id"))).isEmpty();
    }

    @Test
    void aPushForAHandedOffReminderDueInFiveMinutesIsIgnoredAndItKeepsItsMessage() {
        Map<String, Object> body = reminderAt(Instant.now().plus(Duration.ofMinutes(5)));
        long id = createdId(body);
        String messageId = Api.get(id).body("state", equalTo("handed_off")).extract().path("message_id");

        push(message(id, 0)).statusCode(200).body("reason", equalTo("early"));
        push(message(id, 0)).statusCode(200).body("reason", equalTo("early"));

        Api.get(id).body("state", equalTo("handed_off")).body("message_id", equalTo(messageId));
        assertThat(notifier().receivedFor((String) body.get("user_id"))).isEmpty();
    }

    @Test
    void aPushWithinTheToleranceClaimsAndSends() {
        Map<String, Object> body = reminderAt(Instant.now().plusSeconds(20));
        long id = createdId(body);

        push(message(id, 0)).statusCode(200).body("result", equalTo("claimed"));

        await().atMost(DEADLINE).untilAsserted(() -> Api.get(id).body("state", equalTo("sent")));
        assertThat(notifier().receivedFor((String) body.get("user_id"))).hasSize(1);
    }

    @Test
    void theReceivedEventRecordsTheQueuesDeliveryCount() {
        long id = createdId(reminderAt(Instant.now()));

        push("{\"message_id\": \"msg_1\", \"delivery_count\": 3, \"payload\": " + message(id, 0) + "}")
                .statusCode(200).body("result", equalTo("claimed"));

        await().atMost(DEADLINE).untilAsserted(() -> Api.get(id).body("state", equalTo("sent")));
        assertThat(Api.events(id)).filteredOn(event -> "received".equals(event.get("type"))).singleElement()
                .satisfies(event -> assertThat(event).containsEntry("transport", "push")
                        .containsEntry("delivery_count", 3));
    }
}
