package dev.tickler.testing;

import static io.restassured.RestAssured.given;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import io.restassured.http.ContentType;
import io.restassured.response.ValidatableResponse;
import io.restassured.specification.RequestSpecification;

import dev.tickler.emulator.PublishedMessage;

/** Calls the registration API as a product service would, and reads what reached the queue emulator. */
public final class Api {

    public static final String API_KEY = "test-key-1";
    public static final String SECOND_API_KEY = "test-key-2";
    public static final String DEFAULT_QUEUE = "user-reminders";

    private Api() {
    }

    public static RequestSpecification api() {
        return given().header("Authorization", "Bearer " + API_KEY).contentType(ContentType.JSON);
    }

    /** A user id no other test uses, so tests never see each other's data. */
    public static String newUser() {
        return "u_" + UUID.randomUUID();
    }

    /** A valid registration body for a fresh user, firing at the given instant. */
    public static Map<String, Object> reminderAt(Instant fireAt) {
        Map<String, Object> body = new HashMap<>();
        body.put("user_id", newUser());
        body.put("channel", "email");
        body.put("template", "trial_ending");
        body.put("fire_at", fireAt.truncatedTo(ChronoUnit.SECONDS).toString());
        return body;
    }

    /** The same on the push channel, whose queue the emulator pushes back to the application's receiver. */
    public static Map<String, Object> pushReminderAt(Instant fireAt) {
        Map<String, Object> body = reminderAt(fireAt);
        body.put("channel", "push");
        return body;
    }

    public static ValidatableResponse create(Map<String, Object> body) {
        return api().body(body).post("/v1/reminders").then();
    }

    /** A key no other test uses (docs/contract.md#keyed-reminders-and-cancel-by-filter). */
    public static String newKey() {
        return "k:" + UUID.randomUUID();
    }

    /** PUT /v1/reminders/by-key/{key} with the body. */
    public static ValidatableResponse put(String key, Map<String, Object> body) {
        return api().body(body).put("/v1/reminders/by-key/" + key).then();
    }

    /** Creates the reminder and answers its id, failing the test unless the answer is 201. */
    public static long createdId(Map<String, Object> body) {
        return create(body).statusCode(201).extract().jsonPath().getLong("id");
    }

    public static ValidatableResponse get(long id) {
        return api().get("/v1/reminders/" + id).then();
    }

    /** The reminder's timeline (docs/contract.md#timeline), its first 500 events. */
    @SuppressWarnings("unchecked")
    public static List<Map<String, Object>> events(long id) {
        return api().queryParam("limit", 500).get("/v1/reminders/" + id + "/events").then().statusCode(200)
                .extract().jsonPath().getList("items").stream().map(item -> (Map<String, Object>) item).toList();
    }

    /** Every message the emulator created for this reminder, in publish order, on any queue. */
    public static List<PublishedMessage> publishedFor(long reminderId, String queue) {
        String prefix = "reminder:" + reminderId + ":";
        return InfraiEmulatorResource.emulator().published(queue).stream()
                .filter(message -> message.idempotencyKey() != null && message.idempotencyKey().startsWith(prefix))
                .toList();
    }

    public static List<PublishedMessage> publishedFor(long reminderId) {
        return publishedFor(reminderId, DEFAULT_QUEUE);
    }
}
