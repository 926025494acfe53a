package dev.tickler.emulator;

import io.vertx.core.json.JsonObject;
import java.time.Instant;

/** A push subscription; an empty {@code secret} means pushes are not signed. */
record Subscription(String id, String queue, String url, String secret, Instant createdAt) {

    JsonObject toJson() {
        return new JsonObject()
                .put("subscription_id", id)
                .put("queue", queue)
                .put("url", url)
                .put("created_at", createdAt.toString());
    }
}
