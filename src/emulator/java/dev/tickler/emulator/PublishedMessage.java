package dev.tickler.emulator;

import io.vertx.core.json.JsonObject;
import java.time.Instant;

/** A message as it was created by a publish call; {@code idempotencyKey} is {@code null} when none was sent. */
public record PublishedMessage(String messageId, String queue, JsonObject body, long delaySeconds, String idempotencyKey,
        Instant publishedAt) {
}
