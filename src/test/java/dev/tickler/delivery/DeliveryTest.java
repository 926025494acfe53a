package dev.tickler.delivery;

import static dev.tickler.testing.Api.api;
import static dev.tickler.testing.Api.createdId;
import static dev.tickler.testing.Api.publishedFor;
import static dev.tickler.testing.Api.pushReminderAt;
import static dev.tickler.testing.Api.reminderAt;
import static dev.tickler.testing.NotifierResource.notifier;
import static dev.tickler.testing.Push.message;
import static dev.tickler.testing.Push.push;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.nullValue;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;

import dev.tickler.emulator.PublishedMessage;
import dev.tickler.publish.ReminderKeys;
import dev.tickler.testing.Api;
import dev.tickler.testing.InfraiEmulatorResource;
import dev.tickler.testing.NotifierStandIn.Received;
import dev.tickler.testing.NotifierStandIn.Reply;

/**
 * Delivery end to end: the emulator pushes to the receiver over HTTP, the receiver claims and answers, and the
 * notifier stand-in sees what a real provider would. Retry gaps are shortened by the test profile (base 0.2 s,
 * retries over 0.5 s go back to the queue); the waits themselves are asserted in {@link RetryBackoffTest}.
 */
@QuarkusTest
class DeliveryTest {

    private static final Duration DEADLINE = Duration.ofSeconds(20);

    @Test
    void dueReminderIsPushedClaimedAndSentOnceWithItsSendKey() {
        Map<String, Object> body = pushReminderAt(Instant.now());
        body.put("data", Map.of("plan", "pro"));
        body.put("tz", "Europe/Berlin");
        long id = createdId(body);
        String user = (String) body.get("user_id");

        awaitState(id, "sent");

        List<Received> requests = notifier().receivedFor(user);
        assertThat(requests).hasSize(1);
        Received request = requests.get(0);
        assertThat(request.idempotencyKey()).isEqualTo("reminder:" + id + ":0");
        assertThat(request.body().getMap()).containsOnlyKeys("reminder_id", "user_id", "channel", "template", "data",
                "fire_at", "tz");
        assertThat(request.body().getLong("reminder_id")).isEqualTo(id);
        assertThat(request.body().getString("channel")).isEqualTo("push");
        assertThat(request.body().getString("template")).isEqualTo("trial_ending");
        assertThat(request.body().getJsonObject("data").getString("plan")).isEqualTo("pro");
        assertThat(request.body().getString("fire_at")).isEqualTo(body.get("fire_at"));
        assertThat(request.body().getString("tz")).isEqualTo("Europe/Berlin");
        Api.get(id).body("attempts", equalTo(1)).body("sent_at", notNullValue()).body("last_error", nullValue());
    }

    @Test
    void reminderIsNotSentBeforeItsTime() {
        Instant fireAt = Instant.now().plusSeconds(3).truncatedTo(ChronoUnit.SECONDS).plusSeconds(1);
        Map<String, Object> body = pushReminderAt(fireAt);
        long id = createdId(body);

        awaitState(id, "sent");

        assertThat(notifier().receivedFor((String) body.get("user_id"))).singleElement()
                .satisfies(request -> assertThat(request.at()).isAfterOrEqualTo(fireAt));
    }

    @Test
    void twoIdenticalPushesAtTheSameMomentSendOnce() throws Exception {
        Map<String, Object> body = reminderAt(Instant.now());
        long id = createdId(body);

        List<String> outcomes = pushAllAtOnce(List.of(id, id));
        awaitState(id, "sent");

        assertThat(outcomes).containsExactlyInAnyOrder("claimed", "ignored");
        assertThat(notifier().receivedFor((String) body.get("user_id"))).hasSize(1);
        push(message(id, 0)).statusCode(200).body("reason", equalTo("duplicate"));
    }

    @Test
    void aBurstOfRepeatedPushesSendsEachReminderOnce() throws Exception {
        List<Map<String, Object>> reminders = new ArrayList<>();
        List<Long> ids = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            Map<String, Object> body = reminderAt(Instant.now());
            reminders.add(body);
            ids.add(createdId(body));
        }
        List<Long> threeTimesEach = new ArrayList<>(ids);
        threeTimesEach.addAll(ids);
        threeTimesEach.addAll(ids);

        List<String> outcomes = pushAllAtOnce(threeTimesEach);

        assertThat(outcomes).filteredOn("claimed"::equals).hasSize(ids.size());
        assertThat(outcomes).filteredOn("ignored"::equals).hasSize(2 * ids.size());
        for (long id : ids) {
            awaitState(id, "sent");
        }
        // one send each: on a machine slow enough for the notifier call to time out, its retry carries the same key
        for (int i = 0; i < ids.size(); i++) {
            assertThat(notifier().receivedFor((String) reminders.get(i).get("user_id")))
                    .extracting(Received::idempotencyKey).isNotEmpty().containsOnly(ReminderKeys.sendKey(ids.get(i), 0));
        }
    }

    @Test
    void cancelledAfterHandOffIsAcknowledgedAndNotSent() {
        Map<String, Object> body = reminderAt(Instant.now());
        long id = createdId(body);
        api().delete("/v1/reminders/" + id).then().statusCode(200);

        push(message(id, 0)).statusCode(200)
                .body("result", equalTo("ignored"))
                .body("reason", equalTo("stale"));

        Api.get(id).body("state", equalTo("cancelled"));
        assertThat(notifier().receivedFor((String) body.get("user_id"))).isEmpty();
    }

    @Test
    void rescheduledAfterHandOffSendsOnlyTheNewVersion() {
        // the move has to land before the first message comes back, even on a busy machine
        long ackedBefore = InfraiEmulatorResource.emulator().stats(InfraiEmulatorResource.PUSHED_QUEUE).ackedCount();
        Map<String, Object> body = pushReminderAt(Instant.now().plusSeconds(3));
        long id = createdId(body);
        String movedTo = Instant.now().plusSeconds(5).truncatedTo(ChronoUnit.SECONDS).toString();
        api().body(Map.of("fire_at", movedTo)).patch("/v1/reminders/" + id).then().statusCode(200);

        awaitState(id, "sent");
        // the first message (version 0) has been pushed and acknowledged too, and sent nothing
        await().atMost(DEADLINE).until(() -> InfraiEmulatorResource.emulator()
                .stats(InfraiEmulatorResource.PUSHED_QUEUE).ackedCount() >= ackedBefore + 2);

        assertThat(notifier().receivedFor((String) body.get("user_id"))).singleElement()
                .satisfies(request -> assertThat(request.idempotencyKey()).isEqualTo("reminder:" + id + ":1"));
        Api.get(id).body("version", equalTo(1));
    }

    @Test
    void clientErrorFailsAtOnceAndRedriveSendsWithTheSameKey() {
        Map<String, Object> body = pushReminderAt(Instant.now());
        String user = (String) body.get("user_id");
        notifier().script(user, Reply.status(400));
        long id = createdId(body);

        awaitState(id, "failed");
        Api.get(id).body("attempts", equalTo(1)).body("last_error", equalTo("HTTP 400"));

        api().post("/v1/reminders/" + id + "/redrive").then().statusCode(200);
        awaitState(id, "sent");

        assertThat(notifier().receivedFor(user)).extracting(Received::idempotencyKey)
                .containsExactly("reminder:" + id + ":0", "reminder:" + id + ":0");
        Api.get(id).body("attempts", equalTo(1)).body("last_error", nullValue());
    }

    @Test
    void slowNotifierTimesOutAndIsRetried() {
        Map<String, Object> body = pushReminderAt(Instant.now());
        String user = (String) body.get("user_id");
        notifier().script(user, Reply.okAfter(Duration.ofMillis(2500)));
        long id = createdId(body);

        awaitState(id, "sent");

        assertThat(notifier().receivedFor(user)).hasSize(2);
        Api.get(id).body("attempts", equalTo(2));
    }

    @Test
    void reminderPastItsExpiryIsExpiredNotSent() {
        Map<String, Object> body = pushReminderAt(Instant.now().minus(Duration.ofMinutes(10)));
        body.put("expires_after", "PT5M");
        long id = createdId(body);

        awaitState(id, "expired");

        assertThat(notifier().receivedFor((String) body.get("user_id"))).isEmpty();
    }

    @Test
    void acknowledgementComesBeforeTheNotifierAnswers() {
        Map<String, Object> body = reminderAt(Instant.now());
        String user = (String) body.get("user_id");
        notifier().script(user, Reply.okAfter(Duration.ofSeconds(1)));
        long id = createdId(body);

        long started = System.nanoTime();
        push(message(id, 0)).statusCode(200).body("result", equalTo("claimed"));
        Duration acknowledged = Duration.ofNanos(System.nanoTime() - started);

        assertThat(acknowledged).isLessThan(Duration.ofMillis(800));
        Api.get(id).body("state", equalTo("delivering"));
        awaitState(id, "sent");
    }

    private static void awaitState(long id, String state) {
        await().atMost(DEADLINE).untilAsserted(() -> Api.get(id).body("state", equalTo(state)));
    }

    /** Pushes version 0 of each reminder, all released at the same moment; the answers' results, in order. */
    private static List<String> pushAllAtOnce(List<Long> ids) throws Exception {
        ExecutorService pushers = Executors.newFixedThreadPool(Math.min(ids.size(), 32));
        CountDownLatch start = new CountDownLatch(1);
        try {
            List<Future<String>> results = new ArrayList<>();
            for (long id : ids) {
                results.add(pushers.submit(() -> {
                    awaitQuietly(start);
                    return push(message(id, 0)).statusCode(200).extract().jsonPath().getString("result");
                }));
            }
            start.countDown();
            List<String> outcomes = new ArrayList<>();
            for (Future<String> result : results) {
                outcomes.add(result.get(20, TimeUnit.SECONDS));
            }
            return outcomes;
        } finally {
            pushers.shutdownNow();
        }
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
