package dev.tickler.emulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tickler.emulator.InfraiTestClient.Reply;
import io.vertx.core.json.JsonObject;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import org.junit.jupiter.api.Test;

class PublishTest extends EmulatorTestBase {

    @Test
    void negativeDelayIsRefused() {
        Reply reply = client.publishReply(QUEUE, REMINDER, -1, "k1");

        assertInvalidRequest(reply, "delay_seconds must be between 0 and 604800");
        assertTrue(emulator.published(QUEUE).isEmpty());
    }

    @Test
    void delayBeyondSevenDaysIsRefused() {
        Reply reply = client.publishReply(QUEUE, REMINDER, 604_801, "k1");

        assertInvalidRequest(reply, "delay_seconds must be between 0 and 604800");
        assertTrue(emulator.published(QUEUE).isEmpty());
    }

    @Test
    void sevenDayDelayIsAcceptedAndCountedAsDelayed() {
        client.publish(QUEUE, REMINDER, 604_800, "k1");

        QueueStats stats = emulator.stats(QUEUE);
        assertEquals(1, stats.delayedCount());
        assertEquals(0, stats.readyCount());
        assertEquals(1, stats.publishedCount());
        assertTrue(client.consume(QUEUE, 10).isEmpty());
    }

    @Test
    void fractionalDelayIsRefused() {
        Reply reply = client.post("/v1/queue/publish",
                new JsonObject().put("queue", QUEUE).put("body", REMINDER).put("delay_seconds", 1.5));

        assertInvalidRequest(reply, "delay_seconds must be an integer");
    }

    @Test
    void missingQueueIsRefused() {
        Reply reply = client.post("/v1/queue/publish", new JsonObject().put("body", REMINDER));

        assertInvalidRequest(reply, "queue is required and must be a non-empty string");
    }

    @Test
    void missingBodyIsRefused() {
        Reply reply = client.post("/v1/queue/publish", new JsonObject().put("queue", QUEUE));

        assertInvalidRequest(reply, "body is required and must be a JSON object");
    }

    @Test
    void sameIdempotencyKeyReturnsSameMessageId() {
        String first = client.publish(QUEUE, REMINDER, 60, "reminder-8801-v0");
        String second = client.publish(QUEUE, REMINDER, 60, "reminder-8801-v0");

        assertEquals(first, second);
        assertEquals(1, emulator.published(QUEUE).size());
        assertEquals(1, emulator.stats(QUEUE).publishedCount());
        assertEquals(2, emulator.publishRequests());
    }

    @Test
    void sameIdempotencyKeyAfterDeliveryCreatesNoNewMessage() {
        String first = client.publish(QUEUE, REMINDER, 0, "reminder-8801-v0");
        String consumedId = client.consume(QUEUE, 1).getJsonObject(0).getString("message_id");
        assertEquals(200, client.ack(QUEUE, consumedId).status());

        String again = client.publish(QUEUE, REMINDER, 0, "reminder-8801-v0");

        assertEquals(first, again);
        assertTrue(client.consume(QUEUE, 10).isEmpty());
        QueueStats stats = emulator.stats(QUEUE);
        assertEquals(1, stats.publishedCount());
        assertEquals(1, stats.ackedCount());
    }

    @Test
    void sameIdempotencyKeyOnAnotherQueueCreatesAnotherMessage() {
        String first = client.publish(QUEUE, REMINDER, 0, "shared-key");
        String other = client.publish("other-queue", REMINDER, 0, "shared-key");

        assertNotEquals(first, other);
    }

    @Test
    void publishedListsCreatedMessagesInOrder() {
        Instant before = Instant.now();
        String first = client.publish(QUEUE, REMINDER, 30, "k1");
        String second = client.publish(QUEUE, new JsonObject().put("reminder_id", 8802).put("version", 3), 0, null);
        client.publish(QUEUE, REMINDER, 30, "k1");

        List<PublishedMessage> published = emulator.published(QUEUE);

        assertEquals(2, published.size());
        PublishedMessage firstMessage = published.get(0);
        assertEquals(first, firstMessage.messageId());
        assertEquals(QUEUE, firstMessage.queue());
        assertEquals(REMINDER, firstMessage.body());
        assertEquals(30, firstMessage.delaySeconds());
        assertEquals("k1", firstMessage.idempotencyKey());
        assertFalse(firstMessage.publishedAt().isBefore(before.truncatedTo(ChronoUnit.MILLIS)));
        assertEquals(second, published.get(1).messageId());
        assertNull(published.get(1).idempotencyKey());
        assertEquals(8802, published.get(1).body().getInteger("reminder_id"));
    }

    private static void assertInvalidRequest(Reply reply, String message) {
        assertEquals(400, reply.status());
        assertEquals(false, reply.json().getBoolean("ok"));
        assertEquals("INVALID_REQUEST", reply.errorCode());
        assertEquals(message, reply.errorMessage());
    }
}
