package dev.tickler.emulator;

import static dev.tickler.emulator.Eventually.eventually;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tickler.emulator.InfraiTestClient.Reply;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class ConsumeAndLeaseTest extends EmulatorTestBase {

    private static final Duration LEASE = Duration.ofSeconds(1);

    @Override
    EmulatorOptions options() {
        return EmulatorOptions.defaults().withLease(LEASE);
    }

    @Test
    void consumedItemCarriesMessageIdPayloadAndFirstDeliveryCount() {
        String messageId = client.publish(QUEUE, REMINDER, 0, "k1");

        JsonArray items = client.consume(QUEUE, 1);

        assertEquals(1, items.size());
        JsonObject item = items.getJsonObject(0);
        assertEquals(messageId, item.getString("message_id"));
        assertEquals(REMINDER, item.getJsonObject("payload"));
        assertEquals(1, item.getInteger("delivery_count"));
        assertEquals(1, emulator.stats(QUEUE).inFlightCount());
    }

    @Test
    void delayedMessageIsConsumableOnlyOnceItsDelayHasPassed() {
        client.publish(QUEUE, REMINDER, 1, "k1");
        long publishedAt = emulator.published(QUEUE).get(0).publishedAt().toEpochMilli();

        assertTrue(client.consume(QUEUE, 1).isEmpty());
        assertEquals(1, emulator.stats(QUEUE).delayedCount());

        AtomicReference<JsonArray> items = new AtomicReference<>();
        eventually().until(() -> {
            items.set(client.consume(QUEUE, 1));
            return !items.get().isEmpty();
        });
        assertTrue(System.currentTimeMillis() - publishedAt >= 1000);
        assertEquals(REMINDER, items.get().getJsonObject(0).getJsonObject("payload"));
    }

    @Test
    void ackRemovesTheMessage() {
        client.publish(QUEUE, REMINDER, 0, "k1");
        String messageId = client.consume(QUEUE, 1).getJsonObject(0).getString("message_id");

        Reply reply = client.ack(QUEUE, messageId);

        assertEquals(200, reply.status());
        assertEquals(new JsonObject(), reply.data());
        QueueStats stats = emulator.stats(QUEUE);
        assertEquals(1, stats.ackedCount());
        assertEquals(0, stats.inFlightCount());
        assertTrue(client.consume(QUEUE, 1).isEmpty());
    }

    @Test
    void ackAfterLeaseExpiryIsNotInFlight() {
        client.publish(QUEUE, REMINDER, 0, "k1");
        long consumedAt = System.currentTimeMillis();
        String messageId = client.consume(QUEUE, 1).getJsonObject(0).getString("message_id");

        eventually().until(() -> emulator.stats(QUEUE).readyCount() == 1);
        Reply reply = client.ack(QUEUE, messageId);

        assertTrue(System.currentTimeMillis() - consumedAt >= LEASE.toMillis());
        assertEquals(409, reply.status());
        assertEquals("QUEUE_MESSAGE_NOT_IN_FLIGHT", reply.errorCode());
        assertEquals(0, emulator.stats(QUEUE).ackedCount());
    }

    @Test
    void expiredLeaseRedeliversWithGrownDeliveryCount() {
        String messageId = client.publish(QUEUE, REMINDER, 0, "k1");
        client.consume(QUEUE, 1);

        AtomicReference<JsonArray> items = new AtomicReference<>();
        eventually().until(() -> {
            items.set(client.consume(QUEUE, 1));
            return !items.get().isEmpty();
        });

        assertEquals(messageId, items.get().getJsonObject(0).getString("message_id"));
        assertEquals(2, items.get().getJsonObject(0).getInteger("delivery_count"));
    }

    @Test
    void nackRedeliversAtOnceWithDeliveryCountTwo() {
        String messageId = client.publish(QUEUE, REMINDER, 0, "k1");
        client.consume(QUEUE, 1);

        Reply reply = client.nack(QUEUE, messageId);
        JsonArray items = client.consume(QUEUE, 1);

        assertEquals(200, reply.status());
        assertEquals(1, items.size());
        assertEquals(messageId, items.getJsonObject(0).getString("message_id"));
        assertEquals(2, items.getJsonObject(0).getInteger("delivery_count"));
    }

    @Test
    void ackOrNackOfMessageNotLeasedIsNotInFlight() {
        String neverConsumed = client.publish(QUEUE, REMINDER, 0, "k1");
        client.publish(QUEUE, REMINDER, 0, "k2");
        client.consume(QUEUE, 1);
        String consumed = client.consume(QUEUE, 1).getJsonObject(0).getString("message_id");
        client.ack(QUEUE, consumed);

        for (Reply reply : new Reply[] {
                client.ack(QUEUE, consumed),
                client.ack(QUEUE, "no-such-message"),
                client.nack(QUEUE, consumed),
                client.nack("other-queue", neverConsumed)}) {
            assertEquals(409, reply.status());
            assertEquals("QUEUE_MESSAGE_NOT_IN_FLIGHT", reply.errorCode());
        }
    }

    @Test
    void consumeReturnsAtMostMaxMessages() {
        for (int i = 0; i < 12; i++) {
            client.publish(QUEUE, REMINDER.copy().put("reminder_id", i), 0, "k" + i);
        }

        assertEquals(10, client.consume(QUEUE, 10).size());
        assertEquals(2, client.consume(QUEUE, 10).size());
    }

    @Test
    void consumeWithoutMaxMessagesReturnsOne() {
        client.publish(QUEUE, REMINDER, 0, "k1");
        client.publish(QUEUE, REMINDER, 0, "k2");

        Reply reply = client.post("/v1/queue/consume", new JsonObject().put("queue", QUEUE));

        assertEquals(1, reply.data().getJsonArray("items").size());
    }

    @Test
    void maxMessagesOutsideOneToTenIsRefused() {
        for (int maxMessages : new int[] {0, 11}) {
            Reply reply = client.post("/v1/queue/consume", new JsonObject().put("queue", QUEUE).put("max_messages", maxMessages));

            assertEquals(400, reply.status());
            assertEquals("INVALID_REQUEST", reply.errorCode());
            assertEquals("max_messages must be between 1 and 10", reply.errorMessage());
        }
    }
}
