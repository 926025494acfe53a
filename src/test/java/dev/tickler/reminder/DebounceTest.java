package dev.tickler.reminder;

import static dev.tickler.testing.Api.api;
import static dev.tickler.testing.Api.events;
import static dev.tickler.testing.Api.newKey;
import static dev.tickler.testing.Api.pushReminderAt;
import static dev.tickler.testing.Api.put;
import static dev.tickler.testing.NotifierResource.notifier;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;

import dev.tickler.testing.Api;
import dev.tickler.testing.Database;
import dev.tickler.testing.NotifierStandIn.Received;

/**
 * The debounce of docs/api.md ("remind a while after the last activity", one PUT by key per activity) end to end: the
 * queue really delays and pushes every version back, the stale ones are dropped, and the reminder is sent once, at the
 * last time it was pushed to.
 */
@QuarkusTest
class DebounceTest {

    /** The quiet time after the last activity: long enough for the next PUT to come first on a busy machine. */
    private static final Duration QUIET = Duration.ofSeconds(8);
    private static final int ACTIVITIES = 20;

    @Inject
    Database database;

    @Test
    void aKeyPushedLaterTwentyTimesIsSentOnceAtTheLastTime() {
        warmUpTheReplacingPath();
        String key = newKey();
        Map<String, Object> body = pushReminderAt(Instant.now());
        String user = (String) body.get("user_id");
        Instant lastFireAt = Instant.EPOCH;
        long id = 0;
        for (int activity = 0; activity < ACTIVITIES; activity++) {
            Instant fireAt = Instant.now().plus(QUIET).truncatedTo(ChronoUnit.MILLIS);
            lastFireAt = fireAt.isAfter(lastFireAt) ? fireAt : lastFireAt.plusMillis(1);
            body.put("fire_at", lastFireAt.toString());
            body.put("data", Map.of("activity", activity));
            id = put(key, body).statusCode(activity == 0 ? 201 : 200).extract().jsonPath().getLong("id");
        }
        long reminder = id;

        await().atMost(Duration.ofSeconds(30)).until(() -> "sent".equals(state(reminder)));
        // every earlier version's message came back from the queue and was dropped as stale
        await().atMost(Duration.ofSeconds(30)).until(() -> events(reminder).stream()
                .filter(event -> "ignored".equals(event.get("type")) && "stale".equals(event.get("reason")))
                .map(event -> ((Number) event.get("version")).intValue()).collect(Collectors.toSet())
                .equals(IntStream.range(0, ACTIVITIES - 1).boxed().collect(Collectors.toSet())));

        List<Received> sends = notifier().receivedFor(user);
        assertThat(sends).singleElement().satisfies(send -> {
            assertThat(send.idempotencyKey()).isEqualTo("reminder:" + reminder + ":" + (ACTIVITIES - 1));
            assertThat(send.body().getJsonObject("data").getInteger("activity")).isEqualTo(ACTIVITIES - 1);
            assertThat(send.body().getString("fire_at")).isEqualTo(body.get("fire_at"));
        });
        assertThat(sends.get(0).at()).isAfterOrEqualTo(lastFireAt);
        assertThat(database.count("SELECT count(*) FROM reminders WHERE key = $1", key)).isOne();

        // once sent, the key is free: the next activity starts a new reminder
        Map<String, Object> next = pushReminderAt(Instant.now().plus(Duration.ofHours(1)));
        next.put("user_id", user);
        long following = put(key, next).statusCode(201).extract().jsonPath().getLong("id");
        assertThat(following).isNotEqualTo(reminder);
        api().get("/v1/reminders/by-key/" + key).then().statusCode(200).body("id", equalTo((int) following));
        api().delete("/v1/reminders/by-key/" + key).then().statusCode(200);
    }

    /** The first replacement after a start compiles and prepares what it runs, which must not eat the quiet time. */
    private static void warmUpTheReplacingPath() {
        String key = newKey();
        Map<String, Object> body = pushReminderAt(Instant.now().plus(Duration.ofHours(1)));
        put(key, body).statusCode(201);
        body.put("fire_at", Instant.now().plus(Duration.ofHours(2)).truncatedTo(ChronoUnit.SECONDS).toString());
        put(key, body).statusCode(200);
        api().delete("/v1/reminders/by-key/" + key).then().statusCode(200);
    }

    private static String state(long id) {
        return Api.get(id).statusCode(200).extract().jsonPath().getString("state");
    }
}
