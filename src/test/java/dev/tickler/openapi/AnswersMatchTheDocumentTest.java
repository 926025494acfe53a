package dev.tickler.openapi;

import static dev.tickler.testing.Api.api;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.time.LocalDate;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;

import dev.tickler.testing.Api;
import dev.tickler.testing.FutureDates;

/**
 * Real answers of the running application, checked against the stored API document by a JSON Schema validator we
 * did not write (docs/api.md, "The API document"): what a client generated from the document expects is what the
 * API sends, nullable fields, integers and enums included; and every example body the document shows is one its own
 * schema accepts.
 */
@QuarkusTest
class AnswersMatchTheDocumentTest {

    private static DocumentSchemas schemas;

    @BeforeAll
    static void readTheDocument() {
        schemas = DocumentSchemas.stored();
    }

    @Test
    void aReminderThroughItsLifeMatchesTheDocument() {
        Instant fireAt = FutureDates.at(FutureDates.day(), 9);
        Map<String, Object> body = Api.reminderAt(fireAt);
        String user = (String) body.get("user_id");

        Response created = api().body(body).post("/v1/reminders");
        assertThat(created.statusCode()).isEqualTo(201);
        schemas.assertAnswers("post", "/v1/reminders", created);
        long id = created.jsonPath().getLong("id");
        assertThat(created.jsonPath().getString("key")).as("nullable, and null here").isNull();
        assertThat(created.jsonPath().getString("occurrence")).isNull();

        Response again = api().body(body).post("/v1/reminders");
        assertThat(again.statusCode()).isEqualTo(200);
        schemas.assertAnswers("post", "/v1/reminders", again);

        schemas.assertAnswers("get", "/v1/reminders/{id}", ok(api().get("/v1/reminders/" + id)));
        schemas.assertAnswers("patch", "/v1/reminders/{id}", ok(api()
                .body(Map.of("fire_at", fireAt.plusSeconds(3600).toString(), "expires_after", "PT1H"))
                .patch("/v1/reminders/" + id)));
        schemas.assertAnswers("get", "/v1/reminders", ok(api().queryParam("user_id", user).queryParam("limit", 1)
                .get("/v1/reminders")));
        schemas.assertAnswers("delete", "/v1/reminders/{id}", ok(api().delete("/v1/reminders/" + id)));

        Response timeline = ok(api().get("/v1/reminders/" + id + "/events"));
        schemas.assertAnswers("get", "/v1/reminders/{id}/events", timeline);
        assertThat(timeline.jsonPath().getList("items.type", String.class))
                .containsExactly("registered", "rescheduled", "cancelled");
    }

    @Test
    void keyedRemindersAndCancelByFilterMatchTheDocument() {
        Map<String, Object> body = Api.reminderAt(FutureDates.at(FutureDates.day(), 10));
        body.put("tags", List.of("trial"));
        String key = Api.newKey();

        Response put = api().body(body).put("/v1/reminders/by-key/" + key);
        assertThat(put.statusCode()).isEqualTo(201);
        schemas.assertAnswers("put", "/v1/reminders/by-key/{key}", put);
        schemas.assertAnswers("get", "/v1/reminders/by-key/{key}", ok(api().get("/v1/reminders/by-key/" + key)));
        schemas.assertAnswers("post", "/v1/reminders/cancel", ok(api()
                .body(Map.of("user_id", body.get("user_id"), "tag", "trial")).post("/v1/reminders/cancel")));
        schemas.assertAnswers("get", "/v1/reminders/by-key/{key}", ok(api().get("/v1/reminders/by-key/" + key)));
    }

    @Test
    void aBatchWithARefusedItemMatchesTheDocument() {
        Map<String, Object> good = Api.reminderAt(FutureDates.at(FutureDates.day(), 11));
        Map<String, Object> bad = Api.reminderAt(FutureDates.at(FutureDates.day(), 11));
        bad.put("channel", "fax");

        Response batch = ok(api().body(Map.of("items", List.of(good, bad))).post("/v1/reminders/batch"));

        schemas.assertAnswers("post", "/v1/reminders/batch", batch);
        assertThat(batch.jsonPath().getList("items.status", Integer.class)).containsExactly(201, 400);
    }

    @Test
    void problemsMatchTheDocument() {
        Map<String, Object> invalid = Api.reminderAt(FutureDates.at(FutureDates.day(), 12));
        invalid.put("channel", "fax");
        invalid.put("tz", "Mars/Olympus");
        Response refused = api().body(invalid).post("/v1/reminders");
        assertThat(refused.statusCode()).isEqualTo(400);
        assertThat(refused.jsonPath().getList("errors.field", String.class)).contains("channel", "tz");
        schemas.assertAnswers("post", "/v1/reminders", refused);

        Response unknown = api().get("/v1/reminders/999999999999");
        assertThat(unknown.statusCode()).isEqualTo(404);
        schemas.assertAnswers("get", "/v1/reminders/{id}", unknown);

        long pending = Api.createdId(Api.reminderAt(FutureDates.at(FutureDates.day(), 12)));
        Response conflict = api().post("/v1/reminders/" + pending + "/redrive");
        assertThat(conflict.statusCode()).isEqualTo(409);
        schemas.assertAnswers("post", "/v1/reminders/{id}/redrive", conflict);

        Response badPage = api().queryParam("user_id", Api.newUser()).queryParam("limit", 0).get("/v1/reminders");
        assertThat(badPage.statusCode()).isEqualTo(400);
        schemas.assertAnswers("get", "/v1/reminders", badPage);
    }

    @Test
    void aScheduleItsPreviewAndItsOccurrencesMatchTheDocument() {
        LocalDate day = FutureDates.day();
        Map<String, Object> body = new HashMap<>(Map.of("user_id", Api.newUser(), "channel", "email",
                "template", "water_plants", "tz", "Europe/Berlin", "start", day + "T08:00",
                "rrule", "FREQ=DAILY", "dst", Map.of("gap", "skip"), "catch_up", "all"));

        Response created = api().body(body).post("/v1/schedules");
        assertThat(created.statusCode()).isEqualTo(201);
        schemas.assertAnswers("post", "/v1/schedules", created);
        long id = created.jsonPath().getLong("id");

        schemas.assertAnswers("get", "/v1/schedules/{id}", ok(api().get("/v1/schedules/" + id)));
        schemas.assertAnswers("get", "/v1/schedules", ok(api().queryParam("user_id", body.get("user_id"))
                .get("/v1/schedules")));
        schemas.assertAnswers("get", "/v1/schedules/{id}/preview", ok(api().queryParam("count", 3)
                .get("/v1/schedules/" + id + "/preview")));
        Response occurrences = ok(api().queryParam("user_id", body.get("user_id")).get("/v1/reminders"));
        schemas.assertAnswers("get", "/v1/reminders", occurrences);
        assertThat(occurrences.jsonPath().getList("items.occurrence", Integer.class)).isNotEmpty().doesNotContainNull();
        schemas.assertAnswers("post", "/v1/schedules/{id}/pause", ok(api().post("/v1/schedules/" + id + "/pause")));
    }

    @Test
    void quietHoursAndCallbacksMatchTheDocument() {
        String user = Api.newUser();
        Map<String, Object> quietHours = Map.of("tz", "Europe/Berlin", "windows",
                List.of(Map.of("start", "22:00", "end", "07:00"), Map.of("days", List.of("sat", "sun"),
                        "start", "00:00", "end", "24:00", "channels", List.of("sms"))));

        schemas.assertAnswers("put", "/v1/users/{user_id}/quiet-hours", ok(api().body(quietHours)
                .put("/v1/users/" + user + "/quiet-hours")));
        schemas.assertAnswers("get", "/v1/users/{user_id}/quiet-hours", ok(api()
                .get("/v1/users/" + user + "/quiet-hours")));
        schemas.assertAnswers("get", "/v1/callbacks", ok(api().queryParam("limit", 5).get("/v1/callbacks")));
    }

    @Test
    void everyExampleBodyMatchesItsOwnSchema() {
        JsonNode components = schemas.document().path("components").path("schemas");
        SoftAssertions softly = new SoftAssertions();
        int[] examples = {0};

        components.fields().forEachRemaining(schema -> schema.getValue().path("examples").forEach(example -> {
            examples[0]++;
            softly.assertThatCode(() -> schemas.assertMatches("#/components/schemas/" + schema.getKey(),
                    example.toString())).as(schema.getKey()).doesNotThrowAnyException();
        }));

        softly.assertAll();
        assertThat(examples[0]).isGreaterThanOrEqualTo(10);
    }

    private static Response ok(Response response) {
        assertThat(response.statusCode()).as(response.asString()).isEqualTo(200);
        return response;
    }
}
