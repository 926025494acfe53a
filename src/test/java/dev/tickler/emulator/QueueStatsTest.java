package dev.tickler.emulator;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

class QueueStatsTest extends EmulatorTestBase {

    @Test
    void statsCountDelayedReadyInFlightPublishedAndAcked() {
        client.publish(QUEUE, REMINDER, 60, "delayed");
        client.publish(QUEUE, REMINDER, 0, "ready-1");
        client.publish(QUEUE, REMINDER, 0, "ready-2");
        String leased = client.consume(QUEUE, 1).getJsonObject(0).getString("message_id");

        assertEquals(new QueueStats(QUEUE, 1, 1, 1, 3, 0, 0), emulator.stats(QUEUE));
        assertEquals(new JsonObject()
                .put("queue", QUEUE)
                .put("delayed_count", 1)
                .put("ready_count", 1)
                .put("in_flight_count", 1)
                .put("published_count", 3)
                .put("acked_count", 0)
                .put("subscriptions", 0), client.stats(QUEUE));

        client.ack(QUEUE, leased);

        assertEquals(new QueueStats(QUEUE, 1, 1, 0, 3, 1, 0), emulator.stats(QUEUE));
    }

    @Test
    void unknownQueueHasEmptyStats() {
        assertEquals(new QueueStats("never-used", 0, 0, 0, 0, 0, 0), emulator.stats("never-used"));
        assertEquals(0, client.stats("never-used").getLong("published_count"));
    }
}
