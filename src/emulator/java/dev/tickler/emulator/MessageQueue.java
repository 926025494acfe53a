package dev.tickler.emulator;

import io.vertx.core.json.JsonObject;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
import java.util.TreeSet;
import java.util.UUID;

/** State of one queue. Not thread safe: {@link QueueBroker} serialises access. Times are epoch milliseconds. */
final class MessageQueue {

    private enum State { DELAYED, READY, LEASED, PUSHING, RETRY_WAIT }

    private static final class Message {
        final String id = UUID.randomUUID().toString();
        final long sequence;
        final JsonObject payload;
        State state;
        long wakeAt;
        int deliveryCount;
        int pushFailures;

        Message(long sequence, JsonObject payload) {
            this.sequence = sequence;
            this.payload = payload;
        }
    }

    private static final Comparator<Message> BY_WAKE_TIME =
            Comparator.comparingLong((Message message) -> message.wakeAt).thenComparingLong(message -> message.sequence);

    private final String name;
    private final EmulatorOptions options;
    private final Map<String, Message> unackedById = new HashMap<>();
    private final Map<String, String> messageIdByIdempotencyKey = new HashMap<>();
    private final List<PublishedMessage> published = new ArrayList<>();
    /** Delayed, leased and retry-waiting messages, ordered by the time they become ready. */
    private final NavigableSet<Message> waiting = new TreeSet<>(BY_WAKE_TIME);
    private final Deque<Message> ready = new ArrayDeque<>();
    private final long[] countByState = new long[State.values().length];
    private List<Subscription> subscriptions = List.of();
    private long nextSequence;
    private long ackedCount;

    MessageQueue(String name, EmulatorOptions options) {
        this.name = name;
        this.options = options;
    }

    /** Returns the id of the new message, or of the earlier one published with the same idempotency key. */
    String publish(JsonObject body, long delaySeconds, String idempotencyKey, long now) {
        String earlierId = idempotencyKey == null ? null : messageIdByIdempotencyKey.get(idempotencyKey);
        if (earlierId != null) {
            return earlierId;
        }
        Message message = new Message(nextSequence++, body.copy());
        unackedById.put(message.id, message);
        if (idempotencyKey != null) {
            messageIdByIdempotencyKey.put(idempotencyKey, message.id);
        }
        published.add(new PublishedMessage(message.id, name, body.copy(), delaySeconds, idempotencyKey, Instant.ofEpochMilli(now)));
        if (delaySeconds == 0) {
            makeReady(message);
        } else {
            holdUntil(message, State.DELAYED, now + delaySeconds * 1000);
        }
        return message.id;
    }

    List<Delivery> lease(int maxMessages, long now) {
        releaseDue(now);
        List<Delivery> deliveries = new ArrayList<>();
        while (deliveries.size() < maxMessages && !ready.isEmpty()) {
            Message message = ready.pollFirst();
            message.deliveryCount++;
            holdUntil(message, State.LEASED, now + options.lease().toMillis());
            deliveries.add(delivery(message));
        }
        return deliveries;
    }

    boolean ack(String messageId, long now) {
        Message message = leased(messageId, now);
        if (message == null) {
            return false;
        }
        waiting.remove(message);
        acknowledge(message);
        return true;
    }

    boolean nack(String messageId, long now) {
        Message message = leased(messageId, now);
        if (message == null) {
            return false;
        }
        waiting.remove(message);
        makeReady(message);
        return true;
    }

    /** Takes the next ready message for a push, or returns {@code null} when none is ready. */
    Delivery startPush(long now) {
        releaseDue(now);
        Message message = ready.pollFirst();
        if (message == null) {
            return null;
        }
        message.deliveryCount++;
        setState(message, State.PUSHING);
        return delivery(message);
    }

    void finishPush(String messageId, boolean delivered, long now) {
        Message message = unackedById.get(messageId);
        if (message == null || message.state != State.PUSHING) {
            return;
        }
        if (delivered) {
            acknowledge(message);
        } else {
            message.pushFailures++;
            holdUntil(message, State.RETRY_WAIT, now + pushBackoffMillis(message.pushFailures));
        }
    }

    Subscription subscribe(String url, String secret, Instant now) {
        Subscription subscription = new Subscription(UUID.randomUUID().toString(), name, url, secret, now);
        List<Subscription> updated = new ArrayList<>(subscriptions);
        updated.add(subscription);
        subscriptions = List.copyOf(updated);
        return subscription;
    }

    void unsubscribe(String url) {
        subscriptions = subscriptions.stream().filter(subscription -> !subscription.url().equals(url)).toList();
    }

    /** An unmodifiable snapshot, safe to use after the caller releases its lock. */
    List<Subscription> subscriptions() {
        return subscriptions;
    }

    QueueStats stats(long now) {
        releaseDue(now);
        long inFlight = count(State.LEASED) + count(State.PUSHING) + count(State.RETRY_WAIT);
        return new QueueStats(name, count(State.DELAYED), count(State.READY), inFlight, published.size(), ackedCount,
                subscriptions.size());
    }

    List<PublishedMessage> published() {
        return List.copyOf(published);
    }

    private long pushBackoffMillis(int failures) {
        long max = options.pushRetryMax().toMillis();
        long backoff = options.pushRetryBase().toMillis();
        for (int failure = 1; failure < failures && backoff < max; failure++) {
            backoff *= 2;
        }
        return Math.min(max, backoff);
    }

    /** A message whose lease expired is released here, so it is no longer leased even before the next tick. */
    private Message leased(String messageId, long now) {
        releaseDue(now);
        Message message = unackedById.get(messageId);
        return message != null && message.state == State.LEASED ? message : null;
    }

    private void releaseDue(long now) {
        while (!waiting.isEmpty() && waiting.first().wakeAt <= now) {
            makeReady(waiting.pollFirst());
        }
    }

    private void makeReady(Message message) {
        setState(message, State.READY);
        ready.addLast(message);
    }

    /** The message must not be in {@link #waiting}: its ordering key changes here. */
    private void holdUntil(Message message, State state, long wakeAt) {
        setState(message, state);
        message.wakeAt = wakeAt;
        waiting.add(message);
    }

    private void acknowledge(Message message) {
        countByState[message.state.ordinal()]--;
        unackedById.remove(message.id);
        ackedCount++;
    }

    private void setState(Message message, State state) {
        if (message.state != null) {
            countByState[message.state.ordinal()]--;
        }
        message.state = state;
        countByState[state.ordinal()]++;
    }

    private long count(State state) {
        return countByState[state.ordinal()];
    }

    private Delivery delivery(Message message) {
        return new Delivery(name, message.id, message.payload, message.deliveryCount);
    }
}
