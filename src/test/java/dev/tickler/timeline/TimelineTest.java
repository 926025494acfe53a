package dev.tickler.timeline;

import static dev.tickler.testing.Api.api;
import static dev.tickler.testing.Api.createdId;
import static dev.tickler.testing.Api.pushReminderAt;
import static dev.tickler.testing.Api.reminderAt;
import static dev.tickler.testing.NotifierResource.notifier;
import static dev.tickler.testing.Push.message;
import static dev.tickler.testing.Push.push;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;

import dev.tickler.testing.Api;
import dev.tickler.testing.NotifierStandIn.Reply;

/**
 * Every reminder keeps its history (docs/contract.md#timeline): what happened to it, when, in order, over the real HTTP
 * path.
 */
@QuarkusTest
class TimelineTest {

    private static final Duration DEADLINE = Duration.ofSeconds(20);

    @Test
    void aDeliveredReminderTellsItsWholeStory() {
        Map<String, Object> body = pushReminderAt(Instant.now());
        long id = createdId(body);

        awaitState(id, "sent");

        List<Map<String, Object>> events = Api.events(id);
        assertThat(events).extracting(event -> event.get("type"))
                .containsExactly("registered", "published", "received", "attempt", "sent");
        assertThat(events.get(0)).containsEntry("by", "key-1");
        assertThat(events.get(1)).containsEntry("via", "api").containsEntry("publish_key", "reminder:" + id + ":0:0")
                .containsKeys("message_id", "delay_seconds");
        assertThat(events.get(2)).containsEntry("transport", "push");
        assertThat(events.get(3)).containsEntry("attempt", 1).containsEntry("status", 200).containsKey("latency_ms")
                .doesNotContainKey("error");
        assertThat(events).allSatisfy(event -> assertThat(event).containsKey("at"));
        List<Instant> times = events.stream().map(event -> Instant.parse((String) event.get("at"))).toList();
        assertThat(times).isSorted();
    }

    @Test
    void everyNotifierCallIsAnAttemptWithItsStatusAndError() {
        Map<String, Object> body = pushReminderAt(Instant.now());
        notifier().script((String) body.get("user_id"), Reply.status(503), Reply.status(400));
        long id = createdId(body);

        awaitState(id, "failed");

        List<Map<String, Object>> events = Api.events(id);
        assertThat(events).extracting(event -> event.get("type"))
                .containsSubsequence("received", "attempt", "attempt", "failed");
        List<Map<String, Object>> attempts = events.stream().filter(event -> event.get("type").equals("attempt")).toList();
        assertThat(attempts.get(0)).containsEntry("attempt", 1).containsEntry("status", 503)
                .containsEntry("error", "HTTP 503");
        assertThat(attempts.get(1)).containsEntry("attempt", 2).containsEntry("status", 400)
                .containsEntry("error", "HTTP 400");
        assertThat(events.get(events.size() - 1)).containsEntry("type", "failed").containsEntry("error", "HTTP 400");
    }

    @Test
    void rescheduleCancelAndRedriveSayWhoDidWhat() {
        Map<String, Object> body = reminderAt(Instant.now().plus(Duration.ofDays(30)));
        long id = createdId(body);
        Instant from = Instant.parse((String) body.get("fire_at"));
        Instant to = from.plus(Duration.ofDays(1));

        api().body(Map.of("fire_at", to.toString())).patch("/v1/reminders/" + id).then().statusCode(200);
        api().delete("/v1/reminders/" + id).then().statusCode(200);
        api().delete("/v1/reminders/" + id).then().statusCode(200);

        List<Map<String, Object>> events = Api.events(id);
        assertThat(events).extracting(event -> event.get("type"))
                .containsExactly("registered", "rescheduled", "cancelled");
        assertThat(events.get(1)).containsEntry("from", from.toString()).containsEntry("to", to.toString())
                .containsEntry("version", 1).containsEntry("by", "key-1");
        assertThat(events.get(2)).containsEntry("by", "key-1");
    }

    @Test
    void aRedrivenDeadLetterIsPublishedAgainAndSent() {
        Map<String, Object> body = pushReminderAt(Instant.now());
        notifier().script((String) body.get("user_id"), Reply.status(400));
        long id = createdId(body);
        awaitState(id, "failed");

        api().post("/v1/reminders/" + id + "/redrive").then().statusCode(200);
        awaitState(id, "sent");

        List<Map<String, Object>> events = Api.events(id);
        assertThat(events).extracting(event -> event.get("type")).containsSubsequence("failed", "redriven",
                "published", "received", "attempt", "sent");
        assertThat(events).filteredOn(event -> event.get("type").equals("published")).last()
                .satisfies(event -> assertThat(event).containsEntry("via", "redrive")
                        .containsEntry("publish_key", "reminder:" + id + ":0:1"));
    }

    @Test
    void aMessageThatClaimsNothingIsRecordedWithItsReason() {
        long id = createdId(reminderAt(Instant.now().plus(Duration.ofHours(1))));

        push(message(id, 7)).statusCode(200).body("reason", equalTo("stale"));

        assertThat(Api.events(id)).last().satisfies(event -> assertThat(event).containsEntry("type", "ignored")
                .containsEntry("reason", "stale").containsEntry("version", 7));
    }

    @Test
    void pagesFollowOneAnotherWithoutGapsOrRepeats() {
        long id = createdId(reminderAt(Instant.now().plus(Duration.ofDays(30))));
        for (int version = 1; version <= 4; version++) {
            push(message(id, 100 + version)).statusCode(200);
        }
        List<Map<String, Object>> all = Api.events(id);
        assertThat(all).hasSize(5);

        List<Map<String, Object>> paged = new ArrayList<>();
        String after = null;
        int pages = 0;
        do {
            var request = api().queryParam("limit", 2);
            if (after != null) {
                request.queryParam("after", after);
            }
            JsonPath page = request.get("/v1/reminders/" + id + "/events").then().statusCode(200).extract().jsonPath();
            paged.addAll(page.getList("items"));
            after = page.getString("next");
            pages++;
        } while (after != null);

        assertThat(pages).isEqualTo(3);
        assertThat(paged).isEqualTo(all);
    }

    @Test
    void badPagingIsRefusedWithFieldErrors() {
        long id = createdId(reminderAt(Instant.now().plus(Duration.ofDays(30))));
        for (String limit : new String[] { "0", "501", "-1", "x", "1.5", "99999999999" }) {
            api().urlEncodingEnabled(false).get("/v1/reminders/" + id + "/events?limit=" + limit).then()
                    .statusCode(400).body("errors[0].field", equalTo("limit"));
        }
        for (String after : new String[] { "x", "MTIz", "ZXZlbnR8MA", "ZXZlbnR8LTE", "%00" }) {
            api().urlEncodingEnabled(false).get("/v1/reminders/" + id + "/events?after=" + after).then()
                    .statusCode(400).body("errors[0].field", equalTo("after"));
        }
    }

    @Test
    void noSuchReminderHasNoTimeline() {
        api().get("/v1/reminders/999999999999/events").then().statusCode(404)
                .body("type", equalTo("urn:tickler:problem:not-found"));
        api().get("/v1/reminders/01/events").then().statusCode(404);
        given().get("/v1/reminders/1/events").then().statusCode(401);
    }

    private static void awaitState(long id, String state) {
        await().atMost(DEADLINE).untilAsserted(() -> Api.get(id).body("state", equalTo(state)));
    }

    private static io.restassured.specification.RequestSpecification given() {
        return io.restassured.RestAssured.given();
    }
}
