package dev.tickler.callback;

import static dev.tickler.testing.CallbackReceiverResource.CHECKOUT_SECRET;
import static dev.tickler.testing.CallbackReceiverResource.DEFAULT_SECRET;
import static dev.tickler.testing.CallbackReceiverResource.receiver;
import static dev.tickler.testing.NotifierResource.notifier;
import static dev.tickler.testing.OperatorKeysProfile.BARE_PRODUCT;
import static dev.tickler.testing.OperatorKeysProfile.BILLING;
import static dev.tickler.testing.OperatorKeysProfile.CHECKOUT;
import static dev.tickler.testing.OperatorKeysProfile.OPS;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.stream.IntStream;

import jakarta.inject.Inject;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import com.standardwebhooks.exceptions.WebhookVerificationException;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.specification.RequestSpecification;
import io.vertx.core.json.JsonObject;

import dev.tickler.testing.Api;
import dev.tickler.testing.CallbackReceiver;
import dev.tickler.testing.CallbackReceiver.Received;
import dev.tickler.testing.CallbackReceiver.Reply;
import dev.tickler.testing.Database;
import dev.tickler.testing.NotifierStandIn;
import dev.tickler.testing.OperatorKeysProfile;

/**
 * Delivery callbacks end to end (docs/api.md, "Delivery callbacks"): reminders registered over HTTP with the profile's
 * keys, delivered by the queue emulator's pushes and the notifier stand-in, and their outcomes POSTed to a real HTTP
 * endpoint ({@link CallbackReceiver}) that answers, fails, hangs and recovers as each test scripts it. checkout and
 * default (the unnamed keys) have callback URLs; billing has none. Signatures are checked with the Standard Webhooks
 * project's own Java library, as a product service would.
 */
@QuarkusTest
@TestProfile(OperatorKeysProfile.class)
class CallbacksTest {

    private static final Duration DEADLINE = Duration.ofSeconds(30);

    @Inject
    Database database;

    @AfterEach
    void endpointAnswersAsScripted() {
        receiver().answerAsScripted();
    }

    @Test
    void aSentReminderIsPostedOnceSignedAsTheStandardWebhooksLibraryChecksWithTheReminderAsGetShowsIt()
            throws WebhookVerificationException {
        long id = sentReminder(CHECKOUT);

        Received callback = tries(id, 1).get(0);

        callback.verify(CHECKOUT_SECRET);
        assertThatThrownBy(() -> callback.verify(DEFAULT_SECRET)).as("another tenant's secret")
                .isInstanceOf(WebhookVerificationException.class);
        assertThat(callback.tenant()).isEqualTo("checkout");
        assertThat(callback.timestamp()).isBetween(Instant.now().minusSeconds(60).getEpochSecond(),
                Instant.now().getEpochSecond());
        JsonObject body = callback.json();
        assertThat(body.fieldNames()).containsExactlyInAnyOrder("type", "timestamp", "data");
        assertThat(body.getString("type")).isEqualTo("reminder.sent");
        assertThat(Instant.parse(body.getString("timestamp"))).isEqualTo(Instant.parse(body.getJsonObject("data")
                .getString("sent_at")));
        JsonObject asGetShowsIt = new JsonObject(as(CHECKOUT).get("/v1/reminders/" + id).then().statusCode(200)
                .extract().asString());
        assertThat(body.getJsonObject("data")).isEqualTo(asGetShowsIt);
        JsonPath listed = eventOf(CHECKOUT, id);
        assertThat(listed.getLong("id")).isEqualTo(Long.parseLong(callback.webhookId()));
        assertThat(listed.getString("type")).isEqualTo("reminder.sent");
        await().atMost(DEADLINE).untilAsserted(() -> assertThat(eventOf(CHECKOUT, id).getString("delivered_at"))
                .isNotNull());
        assertThat(receiver().receivedForReminder(id)).hasSize(1);
    }

    @Test
    void aFailingEndpointIsTriedAgainWithTheSameWebhookIdAfterPausesThatGrowUntilItAnswers2xx() {
        long id = reminderDueSoon(CHECKOUT);
        receiver().script(id, Reply.status(500), Reply.status(503), Reply.status(404));

        List<Received> tries = tries(id, 4);

        assertThat(tries).extracting(Received::webhookId).containsOnly(tries.get(0).webhookId());
        // pauses of 1 s, then 2 s (the test's tickler.callbacks.max-backoff), each from the answer before
        assertThat(Duration.between(tries.get(0).at(), tries.get(1).at())).isGreaterThan(Duration.ofMillis(900));
        assertThat(Duration.between(tries.get(1).at(), tries.get(2).at())).isGreaterThan(Duration.ofMillis(1_900));
        assertThat(Duration.between(tries.get(2).at(), tries.get(3).at())).isGreaterThan(Duration.ofMillis(1_900))
                .isLessThan(Duration.ofSeconds(10));
        await().atMost(DEADLINE).untilAsserted(() -> {
            JsonPath event = eventOf(CHECKOUT, id);
            assertThat(event.getInt("attempts")).isEqualTo(4);
            assertThat(event.getInt("last_status")).isEqualTo(204);
            assertThat(event.getString("delivered_at")).isNotNull();
            assertThat(event.getString("next_attempt_at")).isNull();
        });
        assertThat(receiver().receivedForReminder(id)).hasSize(4);
    }

    @Test
    void anEndpointThatHangsIsGivenUpOnAfterTheTimeoutAndTriedAgain() {
        long id = reminderDueSoon(CHECKOUT);
        receiver().script(id, Reply.hang(Duration.ofSeconds(5)));

        await().atMost(DEADLINE).untilAsserted(() -> {
            JsonPath event = eventOf(CHECKOUT, id);
            assertThat(event.getString("delivered_at")).isNotNull();
            assertThat(event.getInt("attempts")).isEqualTo(2);
        });

        List<Received> tries = receiver().receivedForReminder(id);
        assertThat(tries).hasSize(2).extracting(Received::webhookId).containsOnly(tries.get(0).webhookId());
        // the second try went out while the first was still held by the endpoint: 1 s timeout, then a 1 s pause
        assertThat(Duration.between(tries.get(0).at(), tries.get(1).at())).isLessThan(Duration.ofSeconds(5));
    }

    @Test
    void aTenantWithoutACallbackUrlGetsNoEvents() {
        long billed = sentReminder(BILLING);
        long checkedOut = sentReminder(CHECKOUT);

        tries(checkedOut, 1);
        assertThat(database.count("SELECT count(*) FROM callback_events WHERE reminder_id = $1", billed)).isZero();
        assertThat(database.count("SELECT count(*) FROM callback_events WHERE tenant = 'billing'")).isZero();
        assertThat(receiver().receivedForReminder(billed)).isEmpty();
        as(BILLING).get("/v1/callbacks").then().statusCode(200).body("items.size()", equalTo(0));
    }

    @Test
    void anotherTenantsEventsCanBeNeitherListedNorRedelivered() {
        long defaults = sentReminder(BARE_PRODUCT);
        await().atMost(DEADLINE).untilAsserted(() -> assertThat(eventOf(BARE_PRODUCT, defaults)
                .getString("delivered_at")).isNotNull());
        long eventId = eventOf(BARE_PRODUCT, defaults).getLong("id");
        String triedSince = database.text("SELECT tried_since::text FROM callback_events WHERE id = $1", eventId);

        assertThat(allEvents(CHECKOUT)).extracting(event -> ((Number) event.get("id")).longValue())
                .doesNotContain(eventId);
        as(CHECKOUT).body(Map.of("ids", List.of(eventId))).post("/v1/callbacks/redeliver").then().statusCode(200)
                .body("redelivered", equalTo(0));

        assertThat(database.text("SELECT tried_since::text FROM callback_events WHERE id = $1", eventId))
                .isEqualTo(triedSince);
        assertThat(database.text("SELECT (delivered_at IS NOT NULL)::text FROM callback_events WHERE id = $1",
                eventId)).isEqualTo("true");
        assertThat(allEvents(OPS)).as("an operator key sees every tenant's")
                .extracting(event -> ((Number) event.get("id")).longValue()).contains(eventId);
    }

    @Test
    void aRedeliveryByIdSendsTheSameEventAgain() {
        long id = sentReminder(CHECKOUT);
        await().atMost(DEADLINE).untilAsserted(() -> assertThat(eventOf(CHECKOUT, id).getString("delivered_at"))
                .isNotNull());
        long eventId = eventOf(CHECKOUT, id).getLong("id");

        as(CHECKOUT).body(Map.of("ids", List.of(eventId))).post("/v1/callbacks/redeliver").then().statusCode(200)
                .body("redelivered", equalTo(1)).body("more", equalTo(false));

        List<Received> tries = tries(id, 2);
        assertThat(tries).extracting(Received::webhookId).containsOnly(Long.toString(eventId));
        assertThat(tries.get(1).body()).isEqualTo(tries.get(0).body());
    }

    @Test
    void aRedeliveryAfterACursorSendsTheEventsAfterIt() {
        List<Long> ids = IntStream.range(0, 3).mapToObj(i -> reminderDueSoon(CHECKOUT)).toList();
        await().atMost(DEADLINE).untilAsserted(() -> ids.forEach(id -> assertThat(eventOf(CHECKOUT, id)
                .getString("delivered_at")).isNotNull()));
        List<Long> eventIds = ids.stream().map(id -> eventOf(CHECKOUT, id).getLong("id")).sorted().toList();
        List<Long> listed = allEvents(CHECKOUT).stream().map(event -> ((Number) event.get("id")).longValue()).toList();
        String cursor = as(CHECKOUT).queryParam("limit", listed.indexOf(eventIds.get(0)) + 1).get("/v1/callbacks")
                .then().statusCode(200).extract().jsonPath().getString("next");

        int redelivered = as(CHECKOUT).body(Map.of("after", cursor)).post("/v1/callbacks/redeliver").then()
                .statusCode(200).extract().jsonPath().getInt("redelivered");

        assertThat(redelivered).isGreaterThanOrEqualTo(2);
        for (long later : List.of(eventIds.get(1), eventIds.get(2))) {
            await().atMost(DEADLINE).until(() -> receiver().receivedFor("checkout").stream()
                    .filter(request -> request.webhookId().equals(Long.toString(later))).count(), count -> count >= 2);
        }
        assertThat(database.count("SELECT attempts FROM callback_events WHERE id = $1", eventIds.get(0))).isEqualTo(1);
    }

    @Test
    void concurrentRedeliveriesOfOneEventEachAnswerAndItEndsDeliveredUnderItsOneWebhookId() throws Exception {
        long id = sentReminder(CHECKOUT);
        await().atMost(DEADLINE).untilAsserted(() -> assertThat(eventOf(CHECKOUT, id).getString("delivered_at"))
                .isNotNull());
        long eventId = eventOf(CHECKOUT, id).getLong("id");

        List<CompletableFuture<Integer>> answers = IntStream.range(0, 8).mapToObj(i -> CompletableFuture.supplyAsync(
                () -> as(CHECKOUT).body(Map.of("ids", List.of(eventId))).post("/v1/callbacks/redeliver").then()
                        .statusCode(200).extract().jsonPath().getInt("redelivered"))).toList();

        assertThat(answers.stream().map(CompletableFuture::join)).containsOnly(1);
        await().atMost(DEADLINE).untilAsserted(() -> {
            JsonPath event = eventOf(CHECKOUT, id);
            assertThat(event.getString("delivered_at")).isNotNull();
            assertThat(event.getString("next_attempt_at")).isNull();
            assertThat(event.getInt("last_status")).isEqualTo(204);
        });
        assertThat(receiver().receivedForReminder(id)).hasSizeGreaterThanOrEqualTo(2)
                .extracting(Received::webhookId).containsOnly(Long.toString(eventId));
    }

    @Test
    void extremeButValidIdsCursorsAndLimitsAreAnsweredAndChangeNothing() {
        String started = database.text("SELECT clock_timestamp()::text");

        as(CHECKOUT).body(Map.of("ids", List.of(Long.MAX_VALUE))).post("/v1/callbacks/redeliver").then()
                .statusCode(200).body("redelivered", equalTo(0)).body("more", equalTo(false));
        as(CHECKOUT).body(Map.of("ids", IntStream.rangeClosed(1, 1_000).mapToObj(i -> Long.MAX_VALUE - i).toList()))
                .post("/v1/callbacks/redeliver").then().statusCode(200).body("redelivered", equalTo(0));
        as(CHECKOUT).body(Map.of("after", new CallbackPosition(Long.MAX_VALUE).toCursor()))
                .post("/v1/callbacks/redeliver").then().statusCode(200).body("redelivered", equalTo(0));
        as(CHECKOUT).queryParam("limit", 1).queryParam("after", new CallbackPosition(Long.MAX_VALUE).toCursor())
                .get("/v1/callbacks").then().statusCode(200).body("items.size()", equalTo(0))
                .body("next", equalTo(null));
        as(CHECKOUT).queryParam("limit", 500).get("/v1/callbacks").then().statusCode(200);

        assertThat(redeliveriesSince(started)).isZero();
    }

    @Test
    void badRedeliveriesAndListsAre400ProblemsThatChangeNothing() {
        String started = database.text("SELECT clock_timestamp()::text");
        String cursor = new CallbackPosition(1).toCursor();
        List<Object> bodies = List.of(Map.of(), Map.of("ids", List.of()), Map.of("ids", List.of(1), "after", cursor),
                Map.of("after", "not-a-cursor"), Map.of("ids", List.of("one")), Map.of("ids", List.of(0)),
                Map.of("idz", List.of(1)), List.of(1), Map.of("ids", IntStream.rangeClosed(1, 1_001).boxed().toList()));
        for (Object body : bodies) {
            as(CHECKOUT).body(body).post("/v1/callbacks/redeliver").then().statusCode(400)
                    .contentType("application/problem+json").body("status", equalTo(400));
        }
        as(CHECKOUT).body("{\"ids\": [1]").post("/v1/callbacks/redeliver").then().statusCode(400)
                .contentType("application/problem+json");
        for (Map<String, Object> query : List.<Map<String, Object>> of(Map.of("limit", 0), Map.of("limit", 501),
                Map.of("after", "nonsense"), Map.of("after", "cmVtaW5kZXJzfDF8MQ"))) {
            as(CHECKOUT).queryParams(query).get("/v1/callbacks").then().statusCode(400)
                    .contentType("application/problem+json").body("errors.size()", equalTo(1));
        }
        given().get("/v1/callbacks").then().statusCode(401);

        assertThat(redeliveriesSince(started)).isZero();
    }

    @Test
    void eachTerminalTransitionIsReportedOnceAndACancelIsNot() {
        // failed (a permanent 4xx), then redriven and sent: an event for each ending
        Map<String, Object> failing = Api.pushReminderAt(Instant.now());
        notifier().script((String) failing.get("user_id"), NotifierStandIn.Reply.status(400));
        long redriven = createdId(CHECKOUT, failing);
        awaitState(redriven, "failed");
        as(CHECKOUT).post("/v1/reminders/" + redriven + "/redrive").then().statusCode(200);
        awaitState(redriven, "sent");
        // skipped: inside the user's quiet hours with the skip policy
        Map<String, Object> quiet = Api.pushReminderAt(Instant.now());
        as(CHECKOUT).body(quietAroundNow()).put("/v1/users/" + quiet.get("user_id") + "/quiet-hours").then()
                .statusCode(200);
        long skipped = createdId(CHECKOUT, quiet);
        awaitState(skipped, "skipped");
        // expired by the sweep: its delivery window closed while it waited
        long expired = database.insertReminder(Api.newUser(), "handed_off", Instant.now().minusSeconds(120),
                "tenant, expires_at", "checkout", Instant.now().minusSeconds(60));
        as(OPS).post("/v1/sweep").then().statusCode(200);
        awaitState(expired, "expired");
        // failed by the poison guard: a claim whose lease ran out once too often
        long poisoned = database.insertReminder(Api.newUser(), "delivering", Instant.now().minusSeconds(120),
                "tenant, lease_until, takeovers", "checkout", Instant.now().minusSeconds(60), 3);
        as(OPS).post("/v1/reconcile").then().statusCode(200);
        awaitState(poisoned, "failed");
        // cancelled: not reported
        long cancelled = createdId(CHECKOUT, Api.reminderAt(Instant.now().plus(Duration.ofHours(1))));
        as(CHECKOUT).delete("/v1/reminders/" + cancelled).then().statusCode(200);

        await().atMost(DEADLINE).untilAsserted(() -> {
            assertThat(typesOf(redriven)).containsExactly("reminder.failed", "reminder.sent");
            assertThat(typesOf(skipped)).containsExactly("reminder.skipped");
            assertThat(typesOf(expired)).containsExactly("reminder.expired");
            assertThat(typesOf(poisoned)).containsExactly("reminder.failed");
        });
        for (long id : List.of(redriven, skipped, expired, poisoned)) {
            await().atMost(DEADLINE).until(() -> receiver().receivedForReminder(id).stream().map(Received::webhookId)
                    .distinct().count(), count -> count == typesOf(id).size());
        }
        assertThat(receiver().receivedForReminder(skipped).get(0).json().getJsonObject("data").getString("state"))
                .isEqualTo("skipped");
        assertThat(typesOf(cancelled)).isEmpty();
    }

    @Test
    void occurrencesACatchUpSkipsAreReportedAsSkipped() {
        String start = LocalDateTime.now(ZoneOffset.UTC).minusDays(3).truncatedTo(ChronoUnit.HOURS).toString();
        long schedule = as(CHECKOUT).body(Map.of("user_id", Api.newUser(), "channel", "email", "template", "digest",
                "tz", "UTC", "start", start, "rrule", "FREQ=DAILY", "catch_up", "none")).post("/v1/schedules").then()
                .statusCode(201).extract().jsonPath().getLong("id");

        long skippedOccurrences = database.count("SELECT count(*) FROM reminders WHERE schedule_id = $1"
                + " AND state = 'skipped'", schedule);
        assertThat(skippedOccurrences).isGreaterThanOrEqualTo(3);
        assertThat(database.count("SELECT count(*) FROM callback_events e JOIN reminders r ON r.id = e.reminder_id"
                + " WHERE r.schedule_id = $1 AND e.type = 'reminder.skipped'", schedule)).isEqualTo(skippedOccurrences);
    }

    // --- helpers ------------------------------------------------------------------------------------------------

    /** Events redelivered since the instant (a redelivery restarts tried_since; a new event has it at created_at). */
    private long redeliveriesSince(String instant) {
        return database.count("SELECT count(*) FROM callback_events WHERE tried_since > created_at"
                + " AND tried_since >= $1::text::timestamptz", instant);
    }

    /** The endpoint's requests for the reminder's events, once there are at least that many. */
    private static List<Received> tries(long reminderId, int atLeast) {
        return await().atMost(DEADLINE).until(() -> receiver().receivedForReminder(reminderId),
                requests -> requests.size() >= atLeast);
    }

    private static RequestSpecification as(String key) {
        return given().header("Authorization", "Bearer " + key).contentType(ContentType.JSON);
    }

    private static long createdId(String key, Map<String, Object> body) {
        return as(key).body(body).post("/v1/reminders").then().statusCode(201).extract().jsonPath().getLong("id");
    }

    /** A reminder of the key's tenant due now, sent through a push. */
    private static long sentReminder(String key) {
        long id = createdId(key, Api.pushReminderAt(Instant.now()));
        await().atMost(DEADLINE).untilAsserted(() -> as(key).get("/v1/reminders/" + id).then()
                .body("state", equalTo("sent")));
        return id;
    }

    /** A reminder sent in a few seconds: long enough for a test to script the endpoint for its id first. */
    private static long reminderDueSoon(String key) {
        return createdId(key, Api.pushReminderAt(Instant.now().plusSeconds(3)));
    }

    private static void awaitState(long id, String state) {
        await().atMost(DEADLINE).untilAsserted(() -> as(OPS).get("/v1/reminders/" + id).then()
                .body("state", equalTo(state)));
    }

    /** Every event the key's tenant lists, page after page. */
    private static List<Map<String, Object>> allEvents(String key) {
        List<Map<String, Object>> events = new ArrayList<>();
        String after = null;
        do {
            RequestSpecification request = as(key).queryParam("limit", 500);
            if (after != null) {
                request.queryParam("after", after);
            }
            JsonPath page = request.get("/v1/callbacks").then().statusCode(200).extract().jsonPath();
            events.addAll(page.getList("items"));
            after = page.getString("next");
        } while (after != null);
        return events;
    }

    /** The key's tenant's one event for the reminder, as GET /v1/callbacks lists it. */
    private static JsonPath eventOf(String key, long reminderId) {
        List<Map<String, Object>> matching = allEvents(key).stream()
                .filter(event -> ((Number) event.get("reminder_id")).longValue() == reminderId).toList();
        assertThat(matching).as("events of reminder " + reminderId).hasSize(1);
        return JsonPath.from(new JsonObject(matching.get(0)).encode());
    }

    private List<String> typesOf(long reminderId) {
        String types = database.text("SELECT coalesce(string_agg(type, ',' ORDER BY id), '') FROM callback_events"
                + " WHERE reminder_id = $1", reminderId);
        return types.isEmpty() ? List.of() : List.of(types.split(","));
    }

    /** Skip every channel from an hour ago to two hours from now, UTC. */
    private static Map<String, Object> quietAroundNow() {
        DateTimeFormatter hhmm = DateTimeFormatter.ofPattern("HH:mm");
        LocalTime now = LocalTime.now(ZoneOffset.UTC);
        return Map.of("tz", "UTC", "policy", "skip", "windows", List.of(Map.of("start",
                now.minusHours(1).format(hhmm), "end", now.plusHours(2).format(hhmm))));
    }
}
