package dev.tickler.web;

import static dev.tickler.testing.Api.api;
import static dev.tickler.testing.Api.createdId;
import static dev.tickler.testing.Api.newUser;
import static dev.tickler.testing.Api.reminderAt;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.not;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.ValidatableResponse;
import io.vertx.core.json.JsonObject;

import dev.tickler.testing.Database;
import dev.tickler.testing.FutureDates;

/**
 * The API is strict where being lenient would hurt its caller (docs/api.md, "Strict input"): unknown query parameters
 * are refused as unknown body fields are, a body is one JSON value with each key once, every error of a body comes
 * back in one answer, and a field that exists but cannot change says so. Every refusal writes nothing.
 */
@QuarkusTest
class StrictInputTest {

    private static final Instant IN_A_DAY = Instant.now().plus(Duration.ofDays(1));

    @Inject
    Database database;

    @Test
    void aMisspeltListParameterIsRefusedInsteadOfListingEverything() {
        String user = newUser();
        createdId(withTemplate(user, "standup"));
        createdId(withTemplate(user, "retro"));

        expectErrors(api().queryParam("user_id", user).queryParam("limt", 1).get("/v1/reminders").then(),
                List.of(Map.of("field", "limt", "message",
                        "unknown query parameter; this call takes after, limit, state, tag, template, user_id")));
    }

    @Test
    void productListsFilterByTemplate() {
        String user = newUser();
        long standup = createdId(withTemplate(user, "standup"));
        createdId(withTemplate(user, "retro"));

        api().queryParam("user_id", user).queryParam("template", "standup").get("/v1/reminders").then()
                .statusCode(200).body("items.id", equalTo(List.of((int) standup)));
        expectErrors(api().queryParam("user_id", user).queryParam("template", "stand up").get("/v1/reminders").then(),
                List.of(Map.of("field", "template", "message",
                        "must be 1 to 128 of A-Z, a-z, 0-9, '_', '.' and '-'")));
    }

    /** Calls of every kind under /v1, each with a parameter it does not take. */
    static Stream<Arguments> callsWithAnUnknownParameter() {
        return Stream.of(
                Arguments.of("GET", "/v1/reminders/1?verbose=1", null),
                Arguments.of("GET", "/v1/reminders/by-key/k1?verbose=1", null),
                Arguments.of("GET", "/v1/reminders/1/events?verbose=1", null),
                Arguments.of("POST", "/v1/reminders/cancel?verbose=1", "{\"user_id\": \"u\"}"),
                Arguments.of("POST", "/v1/reminders/1/redrive?verbose=1", null),
                Arguments.of("GET", "/v1/schedules?user_id=u&verbose=1", null),
                Arguments.of("GET", "/v1/schedules/1/preview?verbose=1", null),
                Arguments.of("GET", "/v1/users/u/quiet-hours?verbose=1", null),
                Arguments.of("GET", "/v1/callbacks?verbose=1", null),
                Arguments.of("POST", "/v1/callbacks/redeliver?verbose=1", "{\"ids\": [1]}"),
                Arguments.of("POST", "/v1/sweep?verbose=1", null),
                Arguments.of("POST", "/v1/reconcile?verbose=1", null),
                Arguments.of("GET", "/v1/admin/reminders?verbose=1", null),
                Arguments.of("GET", "/v1/admin/overview?verbose=1", null),
                Arguments.of("POST", "/v1/admin/cancel?verbose=1", "{\"user_id\": \"u\", \"dry_run\": true}"));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("callsWithAnUnknownParameter")
    void everyApiCallRefusesAnUnknownQueryParameter(String method, String path, String body) {
        var request = api().urlEncodingEnabled(false);
        if (body != null) {
            request.body(body);
        }
        request.request(method, path).then().statusCode(400)
                .contentType("application/problem+json")
                .body("type", equalTo("urn:tickler:problem:validation"))
                .body("errors.field", equalTo(List.of("verbose")))
                .body("errors[0].message", containsString("unknown query parameter"));
    }

    @Test
    void aRefusedParameterChangesNothing() {
        long id = createdId(reminderAt(IN_A_DAY));
        Map<String, Object> body = reminderAt(IN_A_DAY);

        api().delete("/v1/reminders/" + id + "?force=true").then().statusCode(400);
        api().body(body).post("/v1/reminders?dry_run=true").then().statusCode(400);
        api().body(Map.of("data", Map.of("a", 1))).patch("/v1/reminders/" + id + "?version=0").then()
                .statusCode(400);

        api().get("/v1/reminders/" + id).then().body("state", not(equalTo("cancelled"))).body("version", equalTo(0));
        assertThat(database.count("SELECT count(*) FROM reminders WHERE user_id = $1", body.get("user_id"))).isZero();
    }

    @Test
    void theConsoleKeepsItsOwnQueryRules() {
        api().get("/ops/sign-in?next=%2Fops").then().statusCode(200);
    }

    @Test
    void contentAfterTheJsonValueIsRefused() {
        Map<String, Object> body = reminderAt(IN_A_DAY);

        api().body(new JsonObject(body).encode() + " xx").post("/v1/reminders").then().statusCode(400)
                .contentType("application/problem+json")
                .body("type", equalTo("urn:tickler:problem:malformed-json"))
                .body("detail", containsString("content after its JSON value"));
        api().body(new JsonObject(body).encode() + " {}").post("/v1/reminders").then().statusCode(400)
                .body("type", equalTo("urn:tickler:problem:malformed-json"));

        assertThat(database.count("SELECT count(*) FROM reminders WHERE user_id = $1", body.get("user_id"))).isZero();
    }

    @Test
    void aKeyGivenTwiceIsRefusedInsteadOfTheLastOneWinning() {
        String user = newUser();
        String body = "{\"user_id\": \"" + user + "\", \"user_id\": \"" + newUser() + "\", \"channel\": \"email\","
                + " \"template\": \"standup\", \"fire_at\": \"" + IN_A_DAY + "\"}";

        api().body(body).post("/v1/reminders").then().statusCode(400)
                .contentType("application/problem+json")
                .body("type", equalTo("urn:tickler:problem:malformed-json"))
                .body("detail", containsString("the key \"user_id\" appears twice"));
        api().body("{\"data\": {\"a\": 1, \"a\": 2}}").patch("/v1/reminders/" + createdId(reminderAt(IN_A_DAY)))
                .then().statusCode(400).body("detail", containsString("the key \"a\" appears twice"));

        assertThat(database.count("SELECT count(*) FROM reminders WHERE user_id = $1", user)).isZero();
    }

    @Test
    void aBatchIsReadAsStrictly() {
        Map<String, Object> item = reminderAt(IN_A_DAY);
        String items = "{\"items\": [" + new JsonObject(item).encode() + "]}";

        api().body(items + " []").post("/v1/reminders/batch").then().statusCode(400)
                .body("type", equalTo("urn:tickler:problem:malformed-json"))
                .body("detail", containsString("content after its JSON value"));
        api().body("{\"items\": [], \"items\": [" + new JsonObject(item).encode() + "]}").post("/v1/reminders/batch")
                .then().statusCode(400).body("detail", containsString("the key \"items\" appears twice"));

        assertThat(database.count("SELECT count(*) FROM reminders WHERE user_id = $1", item.get("user_id"))).isZero();
    }

    @Test
    void everyErrorOfABodyComesBackInOneAnswer() {
        Map<String, Object> body = reminderAt(IN_A_DAY);
        body.put("chanel", body.remove("channel"));
        body.put("tz", "Mars/Base");

        expectErrors(api().body(body).post("/v1/reminders").then(), List.of(
                Map.of("field", "chanel", "message", "unknown field"),
                Map.of("field", "channel", "message", "is required"),
                Map.of("field", "tz", "message", "must be an IANA time zone id, e.g. Europe/Berlin")));
        assertThat(database.count("SELECT count(*) FROM reminders WHERE user_id = $1", body.get("user_id"))).isZero();
    }

    @Test
    void wrongTypesAndUnknownFieldsAreNamedTogether() {
        Map<String, Object> body = new HashMap<>();
        body.put("user_id", 42);
        body.put("channel", "email");
        body.put("template", List.of("standup"));
        body.put("fire_at", IN_A_DAY.toString());
        body.put("urgent", "yes");
        body.put("tags", "daily");
        body.put("colour", "red");
        body.put("data", List.of());

        expectErrors(api().body(body).post("/v1/reminders").then(), List.of(
                Map.of("field", "colour", "message", "unknown field"),
                Map.of("field", "data", "message", "must be a JSON object"),
                Map.of("field", "tags", "message", "must be an array"),
                Map.of("field", "template", "message", "must be a string"),
                Map.of("field", "urgent", "message", "must be true or false"),
                Map.of("field", "user_id", "message", "must be a string")));
    }

    @Test
    void aBatchItemAnswersEveryErrorOfItsBody() {
        Map<String, Object> item = reminderAt(IN_A_DAY);
        item.put("chanel", item.remove("channel"));
        item.put("tz", "Mars/Base");

        var answer = api().body(Map.of("items", List.of(item))).post("/v1/reminders/batch").then().statusCode(200)
                .extract().jsonPath();

        assertThat(answer.getInt("items[0].status")).isEqualTo(400);
        assertThat(answer.getList("items[0].problem.errors.field")).containsExactly("chanel", "channel", "tz");
    }

    @Test
    void nestedFieldsAreNamedByTheirPath() {
        Map<String, Object> window = new HashMap<>();
        window.put("start", 22);
        window.put("end", "07:30");
        window.put("colour", "red");
        Map<String, Object> body = Map.of("tz", "Mars/Base", "windows", List.of(window), "mode", "defer");

        expectErrors(api().body(body).put("/v1/users/" + newUser() + "/quiet-hours").then(), List.of(
                Map.of("field", "mode", "message", "unknown field"),
                Map.of("field", "tz", "message", "must be an IANA time zone id, e.g. Europe/Berlin"),
                Map.of("field", "windows[0].colour", "message", "unknown field"),
                Map.of("field", "windows[0].start", "message", "must be a string")));
    }

    @Test
    void aScheduleAnswersEveryErrorOfItsBody() {
        Map<String, Object> body = new HashMap<>();
        body.put("user_id", newUser());
        body.put("channel", "email");
        body.put("template", "water_plants");
        body.put("start", FutureDates.day() + "T09:00");
        body.put("rule", "FREQ=DAILY");
        body.put("dst", Map.of("gap", "skip", "overlap", 1, "fold", "first"));

        expectErrors(api().body(body).post("/v1/schedules").then(), List.of(
                Map.of("field", "dst.fold", "message", "unknown field"),
                Map.of("field", "dst.overlap", "message", "must be a string"),
                Map.of("field", "rrule", "message", "is required, e.g. FREQ=WEEKLY;BYDAY=MO,WE,FR"),
                Map.of("field", "rule", "message", "unknown field"),
                Map.of("field", "tz", "message",
                        "is required: the IANA time zone the rule is evaluated in, e.g. Europe/Berlin")));
    }

    @Test
    void theOtherBodiesAnswerEveryErrorToo() {
        expectErrors(api().body(Map.of("user", "u", "tag", 5)).post("/v1/reminders/cancel").then(), List.of(
                Map.of("field", "tag", "message", "must be a string"),
                Map.of("field", "user", "message", "unknown field"),
                Map.of("field", "user_id", "message", "is required")));
        expectErrors(api().body(Map.of("ids", List.of(1, "two"), "since", "x")).post("/v1/callbacks/redeliver").then(),
                List.of(Map.of("field", "ids[1]", "message", "must be an integer"),
                        Map.of("field", "since", "message", "unknown field")));
        expectErrors(api().body(Map.of("stat", "failed", "channel", "fax")).post("/v1/admin/cancel").then(), List.of(
                Map.of("field", "channel", "message", "must be email, sms or push"),
                Map.of("field", "dry_run", "message", "is required: true to count only, false to change"),
                Map.of("field", "stat", "message", "unknown field")));
        expectErrors(api().body(Map.of("fire_at", 5, "colour", "red")).put("/v1/reminders/by-key/" + newUser()).then(),
                List.of(Map.of("field", "channel", "message", "is required"),
                        Map.of("field", "colour", "message", "unknown field"),
                        Map.of("field", "fire_at", "message", "must be a string"),
                        Map.of("field", "template", "message", "is required"),
                        Map.of("field", "user_id", "message", "is required")));
    }

    @Test
    void aPatchOfAFieldThatCannotChangeSaysSo() {
        long id = createdId(reminderAt(IN_A_DAY));
        String advice = "cannot be changed; cancel this reminder and register a new one (a keyed one: PUT its key with"
                + " the whole body)";

        expectErrors(api().body(Map.of("channel", "push", "data", Map.of())).patch("/v1/reminders/" + id).then(),
                List.of(Map.of("field", "channel", "message", advice)));
        expectErrors(api().body(Map.of("user_id", "u", "template", "t", "colour", "red", "data", Map.of()))
                .patch("/v1/reminders/" + id).then(), List.of(
                        Map.of("field", "colour", "message", "unknown field"),
                        Map.of("field", "template", "message", advice),
                        Map.of("field", "user_id", "message", advice)));
        api().get("/v1/reminders/" + id).then().body("channel", equalTo("email")).body("version", equalTo(0));
    }

    @Test
    void aSchedulePatchOfAFieldThatCannotChangeSaysSo() {
        Map<String, Object> body = new HashMap<>();
        body.put("user_id", newUser());
        body.put("channel", "email");
        body.put("template", "water_plants");
        body.put("tz", "UTC");
        body.put("start", FutureDates.day() + "T09:00");
        body.put("rrule", "FREQ=DAILY");
        long id = api().body(body).post("/v1/schedules").then().statusCode(201).extract().jsonPath().getLong("id");

        expectErrors(api().body(Map.of("channel", "sms", "catch_up", "all")).patch("/v1/schedules/" + id).then(),
                List.of(Map.of("field", "channel", "message",
                        "cannot be changed; delete this schedule and create a new one")));
    }

    private static Map<String, Object> withTemplate(String user, String template) {
        Map<String, Object> body = reminderAt(IN_A_DAY);
        body.put("user_id", user);
        body.put("template", template);
        return body;
    }

    /** The errors as the answer gives them, in the order of their fields. */
    private static void expectErrors(ValidatableResponse response, List<Map<String, String>> errors) {
        response.statusCode(400)
                .contentType("application/problem+json")
                .body("type", equalTo("urn:tickler:problem:validation"))
                .body("errors", equalTo(errors));
    }
}
