package dev.tickler.emulator;

import io.vertx.core.json.JsonObject;

/** One delivery of a message, to a consumer or a push subscriber; {@code deliveryCount} includes this one. */
record Delivery(String queue, String messageId, JsonObject payload, int deliveryCount) {

    JsonObject toConsumedItem() {
        return new JsonObject()
                .put("message_id", messageId)
                .put("payload", payload)
                .put("delivery_count", deliveryCount);
    }

    JsonObject toPushEnvelope() {
        return new JsonObject()
                .put("message_id", messageId)
                .put("delivery_count", deliveryCount)
                .put("payload", payload);
    }
}
