package dev.tickler.quiethours;

import static dev.tickler.testing.Api.api;
import static dev.tickler.testing.Api.createdId;
import static dev.tickler.testing.Api.publishedFor;
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
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;

import jakarta.inject.Inject;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;

import dev.tickler.emulator.PublishedMessage;
import dev.tickler.publish.ReminderPublisher;
import dev.tickler.testing.Api;
import dev.tickler.testing.MovableClock;
import dev.tickler.testing.NotifierStandIn.Received;

/**
 * Quiet hours end to end: checked at hand-off (creation, batch, sweep) and again when a reminder is about to be sent,
 * over real HTTP with the queue emulator and the notifier stand-in. Windows are set in UTC around the present moment
 * (every day, so the test never depends on the weekday); the window's end is reached by moving the application's
 * clock and pushing the message as the queue would.
 */
@QuarkusTest
class QuietHoursDeliveryTest {

    private static final Duration DEADLINE = Duration.ofSeconds(20);
    private static final DateTimeFormatter CLOCK = DateTimeFormatter.ofPattern("HH:mm").withZone(ZoneOffset.UTC);
    private static final Duration BEFORE = Duration.ofHours(1);
    private static final Duration AFTER = Duration.ofHours(2);

    @Inject
    MovableClock clock;

    @AfterEach
    void backToNow() {
        clock.reset();
    }

    /** Quiet hours every day from an hour before {@code around} to two hours after; answers the window's end. */
    private static Instant quietAround(String user, Instant around, String policy) {
        api().body(Map.of("tz", "UTC", "policy", policy, "windows", List.of(Map.of(
                        "start", CLOCK.format(around.minus(BEFORE)), "end", CLOCK.format(around.plus(AFTER))))))
                .put("/v1/users/" + user + "/quiet-hours").then().statusCode(200);
        return around.plus(AFTER).truncatedTo(ChronoUnit.MINUTES);
    }

    private static Map<String, Object> emailNowFor(String user) {
        Map<String, Object> body = reminderAt(Instant.now());
        body.put("user_id", user);
        return body;
    }

    @Test
    void aReminderInsideQuietHoursIsPublishedForTheWindowsEndAndSentThen() {
        String user = Api.newUser();
        Instant until = quietAround(user, Instant.now(), "defer");

        Instant registered = Instant.now();
        long id = createdId(emailNowFor(user));

        Api.get(id).body("state", equalTo("handed_off"));
        List<Map<String, Object>> events = Api.events(id);
        assertThat(events).extracting(event -> event.get("type")).containsExactly("registered", "deferred", "published");
        assertThat(events.get(1)).containsEntry("until", until.toString()).containsEntry("reason", "quiet_hours");
        assertThat(events.get(2)).containsEntry("via", "quiet_hours").containsEntry("publish_key", "reminder:" + id + ":0:0");
        assertThat(publishedFor(id)).singleElement().satisfies(message -> assertThat(message.delaySeconds())
                .isBetween(Duration.between(Instant.now(), until).toSeconds() - 5,
                        ReminderPublisher.delaySeconds(until, registered)));

        sentOnceWhenTheWindowHasEnded(id, user, until);
    }

    @Test
    void withTheSkipPolicyAReminderInsideQuietHoursEndsSkippedAtOnce() {
        String user = Api.newUser();
        quietAround(user, Instant.now(), "skip");

        long id = createdId(emailNowFor(user));

        Api.get(id).body("state", equalTo("skipped"));
        assertThat(Api.events(id)).extracting(event -> event.get("type")).containsExactly("registered", "skipped");
        assertThat(Api.events(id).get(1)).containsEntry("reason", "quiet_hours");
        assertThat(publishedFor(id)).isEmpty();
        api().delete("/v1/reminders/" + id).then().statusCode(409);
    }

    @Test
    void quietHoursSetAfterTheHandOffDeferTheSendWithTheSameSendKey() {
        String user = Api.newUser();
        long id = createdId(emailNowFor(user));
        Api.get(id).body("state", equalTo("handed_off"));
        Instant until = quietAround(user, Instant.now(), "defer");

        push(message(id, 0)).statusCode(200).body("result", equalTo("claimed"));

        await().atMost(DEADLINE).until(() -> Api.events(id).stream().anyMatch(event -> "deferred".equals(event.get("type"))));
        Api.get(id).body("state", equalTo("handed_off")).body("version", equalTo(0)).body("attempts", equalTo(0));
        List<Map<String, Object>> events = Api.events(id);
        assertThat(events).extracting(event -> event.get("type"))
                .containsExactly("registered", "published", "received", "deferred", "published");
        assertThat(events.get(3)).containsEntry("until", until.toString()).containsEntry("reason", "quiet_hours");
        assertThat(events.get(4)).containsEntry("via", "quiet_hours").containsEntry("publish_key", "reminder:" + id + ":0:1");
        List<PublishedMessage> published = publishedFor(id);
        assertThat(published).hasSize(2);
        assertThat(published.get(1).delaySeconds()).isGreaterThan(AFTER.toSeconds() - 120);
        assertThat(notifier().receivedFor(user)).isEmpty();

        sentOnceWhenTheWindowHasEnded(id, user, until);
    }

    @Test
    void quietHoursWithSkipSetAfterTheHandOffSkipTheSend() {
        String user = Api.newUser();
        long id = createdId(emailNowFor(user));
        quietAround(user, Instant.now(), "skip");

        push(message(id, 0)).statusCode(200).body("result", equalTo("claimed"));

        awaitState(id, "skipped");
        assertThat(Api.events(id)).last().satisfies(event -> assertThat(event).containsEntry("type", "skipped")
                .containsEntry("reason", "quiet_hours"));
        assertThat(notifier().receivedFor(user)).isEmpty();
    }

    @Test
    void anUrgentReminderIgnoresQuietHours() {
        String user = Api.newUser();
        quietAround(user, Instant.now(), "defer");
        Map<String, Object> body = pushReminderAt(Instant.now());
        body.put("user_id", user);
        body.put("urgent", true);

        long id = api().body(body).post("/v1/reminders").then().statusCode(201).body("urgent", equalTo(true))
                .extract().jsonPath().getLong("id");

        awaitState(id, "sent");
        assertThat(Api.events(id)).extracting(event -> event.get("type")).doesNotContain("deferred");
        assertThat(notifier().receivedFor(user)).hasSize(1);
    }

    @Test
    void aBatchDefersItsQuietItemsAndNotItsUrgentOnes() {
        String user = Api.newUser();
        Instant until = quietAround(user, Instant.now(), "defer");
        Map<String, Object> urgent = emailNowFor(user);
        urgent.put("urgent", true);
        Map<String, Object> quiet = emailNowFor(user);
        quiet.put("template", "second_template");

        JsonPath answer = api().body(Map.of("items", List.of(urgent, quiet))).post("/v1/reminders/batch").then()
                .statusCode(200).extract().jsonPath();

        assertThat(answer.getBoolean("items[0].reminder.urgent")).isTrue();
        assertThat(answer.getBoolean("items[1].reminder.urgent")).isFalse();
        assertThat(answer.getString("items[0].reminder.state")).isEqualTo("handed_off");
        assertThat(answer.getString("items[1].reminder.state")).isEqualTo("handed_off");
        assertThat(Api.events(answer.getLong("items[0].reminder.id"))).extracting(event -> event.get("type"))
                .containsExactly("registered", "published");
        assertThat(Api.events(answer.getLong("items[1].reminder.id"))).extracting(event -> event.get("type"))
                .containsExactly("registered", "deferred", "published");
        assertThat(Api.events(answer.getLong("items[1].reminder.id")).get(1)).containsEntry("until", until.toString());
    }

    @Test
    void urgentMustBeABoolean() {
        Map<String, Object> body = reminderAt(Instant.now().plus(Duration.ofDays(1)));
        body.put("urgent", "yes");

        api().body(body).post("/v1/reminders").then().statusCode(400).body("errors[0].field", equalTo("urgent"));
        body.remove("urgent");
        api().body(body).post("/v1/reminders").then().statusCode(201).body("urgent", equalTo(false));
    }

    @Test
    void expiryWinsOverQuietHoursAtHandOffAndAtSend() {
        String user = Api.newUser();
        quietAround(user, Instant.now(), "defer");
        Map<String, Object> body = emailNowFor(user);
        body.put("expires_after", "PT1H");

        long atHandOff = createdId(body);

        Api.get(atHandOff).body("state", equalTo("expired"));
        assertThat(Api.events(atHandOff)).last().satisfies(event -> assertThat(event).containsEntry("type", "expired")
                .hasEntrySatisfying("error", error -> assertThat((String) error).contains("quiet hours")));
        assertThat(publishedFor(atHandOff)).isEmpty();

        String other = Api.newUser();
        Map<String, Object> later = emailNowFor(other);
        later.put("expires_after", "PT1H");
        long atSend = createdId(later);
        quietAround(other, Instant.now(), "defer");
        push(message(atSend, 0)).statusCode(200);

        awaitState(atSend, "expired");
        assertThat(Api.events(atSend)).last().satisfies(event -> assertThat(event).containsEntry("type", "expired"));
        assertThat(notifier().receivedFor(other)).isEmpty();
    }

    @Test
    void theReconcilerLeavesADeferredReminderAloneUntilItsWindowHasEnded() {
        String user = Api.newUser();
        Instant until = quietAround(user, Instant.now(), "defer");
        long id = createdId(emailNowFor(user));

        clock.moveBy(Duration.ofMinutes(30));
        api().post("/v1/reconcile").then().statusCode(200);

        Api.get(id).body("state", equalTo("handed_off"));
        assertThat(Api.events(id)).extracting(event -> event.get("type")).doesNotContain("reconciled", "received");

        clock.moveBy(Duration.between(Instant.now().plus(Duration.ofMinutes(30)), until).plus(Duration.ofMinutes(11)));
        api().post("/v1/reconcile").then().statusCode(200);

        awaitState(id, "sent");
        assertThat(Api.events(id)).extracting(event -> event.get("type")).contains("reconciled");
    }

    @Test
    void theSweepDefersOrSkipsParkedRemindersThatFallInsideQuietHours() {
        Instant fireAt = Instant.now().plus(Duration.ofDays(8)).truncatedTo(ChronoUnit.SECONDS);
        String deferring = Api.newUser();
        Instant until = quietAround(deferring, fireAt, "defer");
        String skipping = Api.newUser();
        quietAround(skipping, fireAt, "skip");
        Map<String, Object> first = reminderAt(fireAt);
        first.put("user_id", deferring);
        Map<String, Object> second = reminderAt(fireAt);
        second.put("user_id", skipping);
        long deferred = createdId(first);
        long skipped = createdId(second);
        Api.get(deferred).body("state", equalTo("pending"));

        clock.moveBy(Duration.ofDays(2).plusHours(1));
        api().post("/v1/sweep").then().statusCode(200);

        Api.get(deferred).body("state", equalTo("handed_off"));
        List<Map<String, Object>> events = Api.events(deferred);
        assertThat(events).extracting(event -> event.get("type")).containsExactly("registered", "deferred", "published");
        assertThat(events.get(1)).containsEntry("until", until.toString());
        assertThat(events.get(2)).containsEntry("via", "quiet_hours");
        Api.get(skipped).body("state", equalTo("skipped"));
        assertThat(Api.events(skipped)).extracting(event -> event.get("type")).containsExactly("registered", "skipped");
        assertThat(publishedFor(skipped)).isEmpty();
    }

    /** The queue gives the message back at the window's end: sent then, once, with the reminder's one send key. */
    private void sentOnceWhenTheWindowHasEnded(long id, String user, Instant until) {
        clock.moveBy(Duration.between(Instant.now(), until).plusSeconds(5));
        push(message(id, 0)).statusCode(200).body("result", equalTo("claimed"));

        awaitState(id, "sent");
        assertThat(notifier().receivedFor(user)).extracting(Received::idempotencyKey)
                .containsExactly("reminder:" + id + ":0");
    }

    private static void awaitState(long id, String state) {
        await().atMost(DEADLINE).untilAsserted(() -> Api.get(id).body("state", equalTo(state)));
    }
}
