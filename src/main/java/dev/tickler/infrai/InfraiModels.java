package dev.tickler.infrai;

import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;

import io.quarkus.runtime.annotations.RegisterForReflection;

/**
 * The request and answer bodies of the queue API (docs/contract.md#the-queue-api), field names as Infrai spells them
 * (snake_case).
 */
public final class InfraiModels {

    private InfraiModels() {
    }

    /** Written and read by Jackson in {@link PublishClient}, outside the REST client's own registrations. */
    @RegisterForReflection
    record PublishRequest(String queue, Object body, long delaySeconds, String idempotencyKey) {
    }

    @RegisterForReflection
    record PublishResult(String messageId) {
    }

    record ConsumeRequest(String queue, int maxMessages) {
    }

    record ConsumeResult(List<ConsumedMessage> items) {
    }

    record AckRequest(String queue, String receiptHandle) {
    }

    record NackRequest(String queue, String messageId) {
    }

    record SubscribeRequest(String queue, String url, String secret) {
    }

    /** One leased message; payload is the published body. */
    public record ConsumedMessage(String messageId, JsonNode payload, int deliveryCount) {
    }

    /** The queue's own counts; delayed_count is what the reconciler compares with handed_off rows. */
    public record QueueStats(String queue, long delayedCount, JsonNode raw) {
    }
}
