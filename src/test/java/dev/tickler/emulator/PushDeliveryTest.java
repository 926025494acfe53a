package dev.tickler.emulator;

import static dev.tickler.emulator.Eventually.eventually;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tickler.emulator.InfraiTestClient.Reply;
import dev.tickler.emulator.PushReceiver.ReceivedPush;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class PushDeliveryTest {

    private static final String QUEUE = "reminders";
    private static final String SECRET = "push-secret";
    private static final JsonObject REMINDER = new JsonObject().put("reminder_id", 8801).put("version", 0);
    private static final Duration RETRY_BASE = Duration.ofMillis(100);
    private static final EmulatorOptions FAST_RETRIES =
            EmulatorOptions.defaults().withPushRetryBase(RETRY_BASE).withPushRetryMax(Duration.ofSeconds(1));

    private PushReceiver receiver;
    private InfraiEmulator emulator;
    private InfraiTestClient client;

    @BeforeEach
    void startReceiver() throws Exception {
        receiver = PushReceiver.start();
    }

    @AfterEach
    void stopEmulatorAndReceiver() {
        if (emulator != null) {
            emulator.close();
        }
        receiver.close();
    }

    @Test
    void subscribeAnswersTheSubscription() {
        startEmulator(FAST_RETRIES);

        Reply reply = client.subscribe(QUEUE, receiver.url(), SECRET);

        assertEquals(200, reply.status());
        JsonObject subscription = reply.data();
        assertNotNull(subscription.getString("subscription_id"));
        assertEquals(QUEUE, subscription.getString("queue"));
        assertEquals(receiver.url(), subscription.getString("url"));
        assertNotNull(subscription.getString("created_at"));
        assertEquals(1, emulator.stats(QUEUE).subscriptions());
    }

    @Test
    void pushPostsEnvelopeSignedWithHmacOfTheRawBody() throws Exception {
        startEmulator(FAST_RETRIES);
        client.subscribe(QUEUE, receiver.url(), SECRET);

        String messageId = client.publish(QUEUE, REMINDER, 0, "k1");

        eventually().until(() -> receiver.received().size() == 1);
        ReceivedPush push = receiver.received().get(0);
        assertEquals("application/json", push.header("Content-Type"));
        assertEquals("sha256=" + hmacSha256Hex(SECRET, push.body()), push.header("X-Infrai-Signature"));
        assertEquals(new JsonObject().put("message_id", messageId).put("delivery_count", 1).put("payload", REMINDER), push.json());
        eventually().until(() -> emulator.stats(QUEUE).ackedCount() == 1);
        assertEquals(0, emulator.stats(QUEUE).inFlightCount());
    }

    @Test
    void bareBodyOptionPushesThePublishedBodyWithoutSignatureWhenNoSecret() {
        startEmulator(FAST_RETRIES.withBareBodyPush(true));
        client.subscribe(QUEUE, receiver.url(), null);

        client.publish(QUEUE, REMINDER, 0, "k1");

        eventually().until(() -> receiver.received().size() == 1);
        ReceivedPush push = receiver.received().get(0);
        assertEquals(REMINDER, push.json());
        assertNull(push.header("X-Infrai-Signature"));
        eventually().until(() -> emulator.stats(QUEUE).ackedCount() == 1);
    }

    @Test
    void messagePublishedBeforeSubscribingIsPushed() {
        startEmulator(FAST_RETRIES);
        String messageId = client.publish(QUEUE, REMINDER, 0, "k1");

        client.subscribe(QUEUE, receiver.url(), SECRET);

        eventually().until(() -> receiver.received().size() == 1);
        assertEquals(messageId, receiver.received().get(0).json().getString("message_id"));
    }

    @Test
    void failedPushIsRetriedWithBackoffUntilAcknowledged() {
        startEmulator(FAST_RETRIES);
        client.subscribe(QUEUE, receiver.url(), SECRET);
        receiver.answerNext(500, 500);

        client.publish(QUEUE, REMINDER, 0, "k1");

        eventually().until(() -> emulator.stats(QUEUE).ackedCount() == 1);
        List<ReceivedPush> pushes = receiver.received();
        assertEquals(3, pushes.size());
        assertEquals(List.of(1, 2, 3), pushes.stream().map(push -> push.json().getInteger("delivery_count")).toList());
        assertTrue(pushes.get(1).receivedAtMillis() - pushes.get(0).receivedAtMillis() >= RETRY_BASE.toMillis());
        assertTrue(pushes.get(2).receivedAtMillis() - pushes.get(1).receivedAtMillis() >= 2 * RETRY_BASE.toMillis());
        assertEquals(new QueueStats(QUEUE, 0, 0, 0, 1, 1, 1), emulator.stats(QUEUE));
    }

    @Test
    void messageWhosePushKeepsFailingCountsAsInFlight() {
        startEmulator(FAST_RETRIES);
        client.subscribe(QUEUE, receiver.url(), SECRET);
        receiver.answerNext(500, 500, 500, 500, 500, 500, 500, 500, 500, 500);

        client.publish(QUEUE, REMINDER, 0, "k1");

        eventually().until(() -> receiver.received().size() >= 2);
        assertEquals(new QueueStats(QUEUE, 0, 0, 1, 1, 0, 1), emulator.stats(QUEUE));
    }

    @Test
    void pushThatTimesOutIsRetried() {
        startEmulator(FAST_RETRIES.withPushTimeout(Duration.ofMillis(300)));
        client.subscribe(QUEUE, receiver.url(), SECRET);
        receiver.holdNext(1);

        client.publish(QUEUE, REMINDER, 0, "k1");

        eventually().until(() -> emulator.stats(QUEUE).ackedCount() == 1);
        List<ReceivedPush> pushes = receiver.received();
        assertEquals(2, pushes.size());
        assertEquals(2, pushes.get(1).json().getInteger("delivery_count"));
        assertTrue(pushes.get(1).receivedAtMillis() - pushes.get(0).receivedAtMillis() >= 300);
    }

    @Test
    void delayedMessageIsNotPushedBeforeItIsDue() {
        startEmulator(FAST_RETRIES);
        client.subscribe(QUEUE, receiver.url(), SECRET);

        client.publish(QUEUE, REMINDER, 1, "k1");
        long publishedAt = emulator.published(QUEUE).get(0).publishedAt().toEpochMilli();

        eventually().until(() -> receiver.received().size() == 1);
        assertTrue(receiver.received().get(0).receivedAtMillis() - publishedAt >= 1000);
    }

    @Test
    void pushesOutstandingAtOnceAreBounded() {
        startEmulator(FAST_RETRIES.withMaxOutstandingPushes(2));
        client.subscribe(QUEUE, receiver.url(), SECRET);
        receiver.holdNext(2);

        for (int i = 0; i < 5; i++) {
            client.publish(QUEUE, REMINDER.copy().put("reminder_id", i), 0, "k" + i);
        }

        eventually().until(() -> receiver.received().size() == 2);
        eventually().during(Duration.ofMillis(300)).until(() -> receiver.received().size() == 2);
        assertEquals(new QueueStats(QUEUE, 0, 3, 2, 5, 0, 1), emulator.stats(QUEUE));

        receiver.releaseHeldRequests();

        eventually().until(() -> emulator.stats(QUEUE).ackedCount() == 5);
        assertEquals(5, receiver.received().size());
        assertEquals(2, receiver.mostRequestsInProgress());
    }

    private void startEmulator(EmulatorOptions options) {
        emulator = InfraiEmulator.start(options);
        client = new InfraiTestClient(emulator);
    }

    private static String hmacSha256Hex(String secret, byte[] body) throws Exception {
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
        return HexFormat.of().formatHex(mac.doFinal(body));
    }
}
