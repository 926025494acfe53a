package dev.tickler.emulator;

import io.vertx.core.json.JsonObject;

/**
 * Counts of one queue. Delayed messages are not due yet, ready ones are due and not leased, in-flight ones are
 * leased by a consumer or being pushed (including waiting for a push retry).
 */
public record QueueStats(String queue, long delayedCount, long readyCount, long inFlightCount, long publishedCount,
        long ackedCount, int subscriptions) {

    JsonObject toJson() {
        return new JsonObject()
                .put("queue", queue)
                .put("delayed_count", delayedCount)
                .put("ready_count", readyCount)
                .put("in_flight_count", inFlightCount)
                .put("published_count", publishedCount)
                .put("acked_count", ackedCount)
                .put("subscriptions", subscriptions);
    }
}
