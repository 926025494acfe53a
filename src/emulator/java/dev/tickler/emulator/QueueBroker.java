package dev.tickler.emulator;

import io.vertx.core.json.JsonObject;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** All queues of the emulator. Every method is synchronized: HTTP handlers, timers and test threads call in concurrently. */
final class QueueBroker {

    private final EmulatorOptions options;
    private final Map<String, MessageQueue> queues = new LinkedHashMap<>();
    private int outstandingPushes;

    QueueBroker(EmulatorOptions options) {
        this.options = options;
    }

    synchronized String publish(String queue, JsonObject body, long delaySeconds, String idempotencyKey) {
        return queue(queue).publish(body, delaySeconds, idempotencyKey, now());
    }

    synchronized List<Delivery> consume(String queue, int maxMessages) {
        return queue(queue).lease(maxMessages, now());
    }

    /** Returns false when the message is not leased to a consumer. */
    synchronized boolean ack(String queue, String messageId) {
        return queue(queue).ack(messageId, now());
    }

    /** Returns false when the message is not leased to a consumer. */
    synchronized boolean nack(String queue, String messageId) {
        return queue(queue).nack(messageId, now());
    }

    synchronized Subscription subscribe(String queue, String url, String secret) {
        return queue(queue).subscribe(url, secret == null ? "" : secret, Instant.ofEpochMilli(now()));
    }

    synchronized void unsubscribe(String url) {
        queues.values().forEach(queue -> queue.unsubscribe(url));
    }

    synchronized QueueStats stats(String queue) {
        return queue(queue).stats(now());
    }

    synchronized List<PublishedMessage> published(String queue) {
        MessageQueue existing = queues.get(queue);
        return existing == null ? List.of() : existing.published();
    }

    /** Pushes still outstanding are not forgotten: they finish against queues that no longer exist and change nothing. */
    synchronized void reset() {
        queues.clear();
    }

    /**
     * Marks due messages of subscribed queues as being pushed, taking them from the queues in turn,
     * up to the bound of outstanding pushes. The caller must report each one to {@link #finishPush}.
     */
    synchronized List<PushAttempt> startPushes() {
        long now = now();
        List<MessageQueue> subscribed = queues.values().stream().filter(queue -> !queue.subscriptions().isEmpty()).toList();
        List<PushAttempt> attempts = new ArrayList<>();
        boolean anyStarted = true;
        while (anyStarted && outstandingPushes < options.maxOutstandingPushes()) {
            anyStarted = false;
            for (MessageQueue queue : subscribed) {
                if (outstandingPushes >= options.maxOutstandingPushes()) {
                    break;
                }
                Delivery delivery = queue.startPush(now);
                if (delivery != null) {
                    attempts.add(new PushAttempt(delivery, queue.subscriptions()));
                    outstandingPushes++;
                    anyStarted = true;
                }
            }
        }
        return attempts;
    }

    synchronized void finishPush(Delivery delivery, boolean delivered) {
        outstandingPushes--;
        MessageQueue queue = queues.get(delivery.queue());
        if (queue != null) {
            queue.finishPush(delivery.messageId(), delivered, now());
        }
    }

    private MessageQueue queue(String name) {
        return queues.computeIfAbsent(name, newName -> new MessageQueue(newName, options));
    }

    private static long now() {
        return System.currentTimeMillis();
    }
}
