package dev.tickler.callback;

import static dev.tickler.testing.CallbackReceiverResource.receiver;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

import jakarta.inject.Inject;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import com.standardwebhooks.Webhook;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import io.vertx.core.json.JsonObject;

import dev.tickler.security.Tenants;
import dev.tickler.testing.Api;
import dev.tickler.testing.CallbackReceiver.Received;
import dev.tickler.testing.CallbackReceiver.Reply;
import dev.tickler.testing.Database;
import dev.tickler.testing.OwnApplication;

/**
 * Callbacks against endpoints as product services run them (docs/api.md, "Delivery callbacks"): one that holds every
 * call for 30 s, longer than nothing on the delivery path may wait, and the receiver the document shows, run as
 * written. The unnamed key's tenant ({@value Tenants#DEFAULT}) posts to the scripted endpoint, {@value
 * DocumentedReceiver#TENANT} to the documented receiver, and {@value #PLAIN} has no callbacks. A try may take 40 s
 * here, so a hanging endpoint holds each of the dispatcher's slots for its full 30 s.
 */
@QuarkusTest
@TestProfile(CallbackEndpointsTest.Endpoints.class)
class CallbackEndpointsTest {

    static final String PLAIN = "plain";
    private static final String DOCS_KEY = "docs-callbacks-key";
    private static final String PLAIN_KEY = "plain-callbacks-key";
    private static final int REMINDERS = 1_000;
    /** tickler.callbacks.concurrency: the tries of one tenant an instance has in flight. */
    private static final int CONCURRENCY = 16;
    private static final Duration HANG = Duration.ofSeconds(30);
    /**
     * A send that waited for a hanging callback would be at least 30 s late; half that leaves a loaded machine its
     * hiccups. The figures printed beside the run without callbacks say how punctual both were.
     */
    private static final Duration ON_TIME = HANG.dividedBy(2);

    public static class Endpoints implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return OwnApplication.withoutApiDocument(Map.of(
                    "tickler.api.keys", Api.API_KEY + "," + DocumentedReceiver.TENANT + "=" + DOCS_KEY + "," + PLAIN
                            + "=" + PLAIN_KEY,
                    "tickler.callbacks.timeout", "PT40S"));
        }

        @Override
        public List<TestResourceEntry> testResources() {
            return List.of(new TestResourceEntry(DocumentedReceiver.class));
        }
    }

    @Inject
    Database database;

    private final HttpClient http = HttpClient.newHttpClient();

    @AfterEach
    void endpointAnswersAsScripted() {
        receiver().answerAsScripted();
    }

    @Test
    void remindersAndAnotherTenantsCallbacksGoOutOnTimeWhileOneEndpointHoldsEveryCallFor30Seconds() {
        sendAll(PLAIN_KEY); // the first thousand of a fresh application warm it up; they are not counted
        Lateness withoutCallbacks = sendAll(PLAIN_KEY);
        receiver().answerAlways(Reply.hang(HANG));
        // the endpoint holds as many tries as the tenant may have in flight before the thousand are due
        List<Long> first = ids(as(Api.API_KEY).body(Map.of("items", IntStream.range(0, CONCURRENCY)
                .mapToObj(i -> Api.pushReminderAt(Instant.now())).toList())).post("/v1/reminders/batch"));
        await().atMost(Duration.ofSeconds(20)).until(() -> receiver().receivedFor(Tenants.DEFAULT).size(),
                held -> held >= CONCURRENCY);

        Lateness whileHanging = sendAll(Api.API_KEY);

        System.out.printf("%d reminders due at once, lateness p50 / p99 / max (ms): %s without callbacks,"
                + " %s while the callback endpoint hangs%n", REMINDERS, withoutCallbacks, whileHanging);
        List<Received> heldThroughTheLastSend = receiver().receivedFor(Tenants.DEFAULT).stream()
                .filter(request -> request.at().isBefore(whileHanging.lastSent())
                        && request.at().plus(HANG).isAfter(whileHanging.lastSent())).toList();
        assertThat(heldThroughTheLastSend).as("tries the endpoint was holding when the last reminder went out")
                .hasSizeGreaterThanOrEqualTo(CONCURRENCY);
        assertThat(whileHanging.maxMillis()).as("the latest send after its fire_at, ms")
                .isLessThan(ON_TIME.toMillis());

        // another tenant's callbacks go out meanwhile: its pass is its own
        Map<String, Object> other = Api.pushReminderAt(Instant.now());
        long otherId = as(DOCS_KEY).body(other).post("/v1/reminders").then().statusCode(201).extract().jsonPath()
                .getLong("id");
        await().atMost(HANG.dividedBy(2)).until(DocumentedReceiver::printed, lines -> lines.contains(
                "reminder.sent reminder " + otherId + " of user " + other.get("user_id")));
        assertThat(database.count("SELECT count(*) FROM callback_events WHERE reminder_id = ANY($1)"
                + " AND delivered_at IS NULL", (Object) whileHanging.ids().toArray(Long[]::new)))
                .as("the hanging endpoint's events, still undelivered").isPositive();

        receiver().answerAsScripted();
        List<Long> hung = new ArrayList<>(first);
        hung.addAll(whileHanging.ids());
        await().atMost(Duration.ofMinutes(3)).untilAsserted(() -> assertThat(database.count("SELECT count(*) FROM"
                + " callback_events WHERE reminder_id = ANY($1) AND delivered_at IS NOT NULL",
                (Object) hung.toArray(Long[]::new))).isEqualTo(hung.size()));
    }

    @Test
    void theDocumentedReceiverHandlesEachEventOnceAndRefusesForgedAndReplayedCallbacks() throws Exception {
        Map<String, Object> body = Api.pushReminderAt(Instant.now());
        long id = as(DOCS_KEY).body(body).post("/v1/reminders").then().statusCode(201).extract().jsonPath()
                .getLong("id");
        String handled = "reminder.sent reminder " + id + " of user " + body.get("user_id");

        await().atMost(Duration.ofSeconds(30)).until(DocumentedReceiver::printed, lines -> lines.contains(handled));
        JsonPath event = await().atMost(Duration.ofSeconds(30)).until(() -> eventOf(id),
                listed -> listed.getString("delivered_at") != null);
        assertThat(event.getInt("last_status")).isEqualTo(204);
        assertThat(event.getInt("attempts")).isEqualTo(1);

        // a redelivery arrives with the same webhook-id: answered 2xx, not handled twice
        as(DOCS_KEY).body(Map.of("ids", List.of(event.getLong("id")))).post("/v1/callbacks/redeliver").then()
                .statusCode(200).body("redelivered", equalTo(1));
        await().atMost(Duration.ofSeconds(30)).until(() -> eventOf(id), listed -> listed.getString("delivered_at")
                != null && !listed.getString("delivered_at").equals(event.getString("delivered_at")));
        assertThat(eventOf(id).getInt("last_status")).isEqualTo(204);

        // the same judgement as the Standard Webhooks library's: its signature passes, anything else is refused
        long now = Instant.now().getEpochSecond();
        String payload = "{\"type\":\"reminder.sent\",\"timestamp\":\"2026-01-01T00:00:00Z\",\"data\":{\"id\":-1,"
                + "\"user_id\":\"u_signed_by_the_library\"}}";
        Webhook right = new Webhook(DocumentedReceiver.SECRET);
        Webhook wrong = new Webhook("whsec_" + Base64.getEncoder().encodeToString(
                "another-tenants-key-bytes".getBytes(StandardCharsets.UTF_8)));
        assertThat(post("lib-1", now, right.sign("lib-1", now, payload), payload)).isEqualTo(204);
        assertThat(post("forged-1", now, wrong.sign("forged-1", now, payload), payload)).isEqualTo(401);
        assertThat(post("forged-2", now, right.sign("forged-2", now, payload), payload.replace("-1", "-2")))
                .as("a body changed after signing").isEqualTo(401);
        assertThat(post("forged-3", now, right.sign("forged-2", now, payload), payload))
                .as("another event's signature").isEqualTo(401);
        assertThat(post("replayed-1", now - 600, right.sign("replayed-1", now - 600, payload), payload))
                .as("ten minutes old").isEqualTo(401);
        assertThat(post("forged-4", now, "", payload)).as("no signature").isEqualTo(401);

        assertThat(DocumentedReceiver.printed()).filteredOn(line -> line.contains("reminder " + id + " "))
                .containsExactly(handled);
        assertThat(DocumentedReceiver.printed()).filteredOn(line -> line.contains("u_signed_by_the_library"))
                .hasSize(1);
    }

    /**
     * The sends of {@value #REMINDERS} reminders due together: their ids, when the last went out, and how late after
     * their due time (their fire_at, or their registration when that came later) they were sent.
     */
    private record Lateness(List<Long> ids, Instant lastSent, long p50Millis, long p99Millis, long maxMillis) {

        @Override
        public String toString() {
            return p50Millis + " / " + p99Millis + " / " + maxMillis;
        }
    }

    /** {@value #REMINDERS} push reminders of the key's tenant due together in a few seconds, once all are sent. */
    private Lateness sendAll(String key) {
        Instant fireAt = Instant.now().plusSeconds(8).truncatedTo(ChronoUnit.SECONDS);
        List<Map<String, Object>> items = IntStream.range(0, REMINDERS).mapToObj(i -> Api.pushReminderAt(fireAt))
                .toList();
        List<Long> ids = ids(as(key).body(Map.of("items", items)).post("/v1/reminders/batch"));
        assertThat(ids).hasSize(REMINDERS);
        Long[] idArray = ids.toArray(Long[]::new);
        await().atMost(Duration.ofMinutes(2)).until(() -> database.count("SELECT count(*) FROM reminders"
                + " WHERE id = ANY($1) AND state = 'sent'", (Object) idArray) == REMINDERS);
        String quantiles = database.text("SELECT concat_ws(',', (extract(epoch FROM percentile_disc(0.5) WITHIN GROUP"
                + " (ORDER BY sent_at - due)) * 1000)::bigint, (extract(epoch FROM percentile_disc(0.99) WITHIN"
                + " GROUP (ORDER BY sent_at - due)) * 1000)::bigint, (extract(epoch FROM max(sent_at - due))"
                + " * 1000)::bigint, (extract(epoch FROM max(sent_at)) * 1000000)::bigint) FROM (SELECT sent_at,"
                + " greatest(fire_at, created_at) AS due FROM reminders WHERE id = ANY($1)) AS sends", (Object) idArray);
        long[] figures = Arrays.stream(quantiles.split(",")).mapToLong(Long::parseLong).toArray();
        return new Lateness(ids, Instant.EPOCH.plus(figures[3], ChronoUnit.MICROS), figures[0], figures[1],
                figures[2]);
    }

    /** The ids of a batch registration's reminders, all created. */
    private static List<Long> ids(Response batch) {
        List<Integer> statuses = batch.then().statusCode(200).extract().jsonPath().getList("items.status", Integer.class);
        assertThat(statuses).containsOnly(201);
        return batch.jsonPath().getList("items.reminder.id", Long.class);
    }

    private int post(String webhookId, long timestamp, String signature, String body) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(DocumentedReceiver.url()))
                .header("Content-Type", "application/json").header("webhook-id", webhookId)
                .header("webhook-timestamp", Long.toString(timestamp))
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (!signature.isEmpty()) {
            request.header("webhook-signature", signature);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.discarding()).statusCode();
    }

    private static RequestSpecification as(String key) {
        return given().header("Authorization", "Bearer " + key).contentType(ContentType.JSON);
    }

    /** The documented receiver's tenant's one event for the reminder, as GET /v1/callbacks lists it. */
    private static JsonPath eventOf(long reminderId) {
        JsonPath page = as(DOCS_KEY).queryParam("limit", 500).get("/v1/callbacks").then().statusCode(200).extract()
                .jsonPath();
        List<Map<String, Object>> matching = page.<Map<String, Object>>getList("items").stream()
                .filter(event -> ((Number) event.get("reminder_id")).longValue() == reminderId).toList();
        assertThat(matching).hasSize(1);
        return JsonPath.from(new JsonObject(matching.get(0)).encode());
    }
}
