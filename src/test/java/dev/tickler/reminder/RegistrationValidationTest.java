package dev.tickler.reminder;

import static dev.tickler.testing.Api.api;
import static dev.tickler.testing.Api.create;
import static dev.tickler.testing.Api.reminderAt;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.not;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.ValidatableResponse;

import dev.tickler.testing.FutureDates;

@QuarkusTest
class RegistrationValidationTest {

    private static final Instant TOMORROW = Instant.now().plus(Duration.ofDays(1));

    static List<Arguments> invalidFields() {
        return List.of(
                Arguments.of("user_id", null, "is required"),
                Arguments.of("user_id", "", "must be 1 to 128 characters"),
                Arguments.of("user_id", "u".repeat(129), "must be 1 to 128 characters"),
                Arguments.of("channel", null, "is required"),
                Arguments.of("channel", "fax", "must be email, sms or push"),
                Arguments.of("template", null, "is required"),
                Arguments.of("template", "", "must be 1 to 128 characters"),
                Arguments.of("template", "t".repeat(129), "must be 1 to 128 characters"),
                Arguments.of("template", "trial ending!", "may only hold A-Z, a-z, 0-9, '_', '.' and '-'"),
                Arguments.of("fire_at", FutureDates.day() + "T08:00:00",
                        "must be an ISO-8601 instant with an offset, e.g. 2026-12-01T08:00:00Z"),
                Arguments.of("fire_at", "tomorrow",
                        "must be an ISO-8601 instant with an offset, e.g. 2026-12-01T08:00:00Z"),
                Arguments.of("tz", "Mars/Olympus", "must be an IANA time zone id, e.g. Europe/Berlin"),
                Arguments.of("tz", "+01:00", "must be an IANA time zone id, e.g. Europe/Berlin"),
                Arguments.of("expires_after", "6 hours", "must be a positive ISO-8601 duration, e.g. PT6H or P1D"),
                Arguments.of("expires_after", "-PT1H", "must be a positive ISO-8601 duration, e.g. PT6H or P1D"));
    }

    @ParameterizedTest(name = "{0} = {1}")
    @MethodSource("invalidFields")
    void invalidFieldIsRefusedWithAFieldError(String field, String value, String message) {
        Map<String, Object> body = reminderAt(TOMORROW);
        body.put(field, value);

        expectSingleFieldError(create(body), field, message);
    }

    @Test
    void neitherFireAtNorLocalTimeIsRefused() {
        Map<String, Object> body = reminderAt(TOMORROW);
        body.remove("fire_at");

        expectSingleFieldError(create(body), "fire_at", "one of fire_at or local_time with tz is required");
    }

    @Test
    void bothFireAtAndLocalTimeAreRefused() {
        Map<String, Object> body = reminderAt(TOMORROW);
        body.put("local_time", FutureDates.day() + "T09:00");
        body.put("tz", "Europe/Berlin");

        expectSingleFieldError(create(body), "fire_at", "give either fire_at or local_time with tz, not both");
    }

    @Test
    void localTimeWithAnOffsetIsRefused() {
        Map<String, Object> body = reminderAt(TOMORROW);
        body.remove("fire_at");
        body.put("local_time", FutureDates.day() + "T09:00+01:00");

        expectSingleFieldError(create(body), "local_time",
                "must be an ISO-8601 wall-clock time without offset, e.g. 2026-12-01T09:00");
    }

    @Test
    void everyInvalidFieldIsReportedAtOnceInFieldOrder() {
        Map<String, Object> body = reminderAt(TOMORROW);
        body.put("user_id", "");
        body.put("channel", "fax");
        body.put("tz", "Nowhere/Land");

        create(body).statusCode(400)
                .body("detail", equalTo("3 fields are not valid"))
                .body("errors.field", equalTo(List.of("channel", "tz", "user_id")));
    }

    @Test
    void dataOverSixteenKibibytesIsRefused() {
        Map<String, Object> body = reminderAt(TOMORROW);
        body.put("data", Map.of("text", "x".repeat(16 * 1024)));

        expectSingleFieldError(create(body), "data", "must be at most 16384 bytes when serialized");
    }

    @Test
    void dataOfExactlySixteenKibibytesIsAccepted() {
        Map<String, Object> body = reminderAt(TOMORROW);
        // {"text":"…"} is 11 bytes of framing around the value
        body.put("data", Map.of("text", "x".repeat(16 * 1024 - 11)));

        create(body).statusCode(201);
    }

    @Test
    void dataThatIsNotAnObjectIsRefused() {
        Map<String, Object> body = reminderAt(TOMORROW);
        body.put("data", List.of(1, 2));

        expectSingleFieldError(create(body), "data", "must be a JSON object");
    }

    @Test
    void unknownFieldIsRefused() {
        Map<String, Object> body = reminderAt(TOMORROW);
        body.put("colour", "blue");

        expectSingleFieldError(create(body), "colour", "unknown field");
    }

    @Test
    void numberWhereAStringBelongsIsRefused() {
        Map<String, Object> body = reminderAt(TOMORROW);
        body.put("user_id", 4412);

        expectSingleFieldError(create(body), "user_id", "must be a string");
    }

    @Test
    void bodyThatIsNotAnObjectIsRefused() {
        api().body("[1, 2]").post("/v1/reminders").then()
                .statusCode(400)
                .contentType("application/problem+json")
                .body("errors[0].field", equalTo("body"));
    }

    @Test
    void emptyBodyIsRefused() {
        api().post("/v1/reminders").then()
                .statusCode(400)
                .contentType("application/problem+json")
                .body("type", equalTo("urn:tickler:problem:validation"))
                .body("errors[0].field", equalTo("body"));
    }

    @Test
    void malformedJsonIsRefusedWithoutInternals() {
        api().body("{\"user_id\": ").post("/v1/reminders").then()
                .statusCode(400)
                .contentType("application/problem+json")
                .body("type", equalTo("urn:tickler:problem:malformed-json"))
                .body("title", equalTo("Body is not valid JSON"))
                .body("status", equalTo(400))
                .body("detail", not(containsString("jackson")))
                .body("detail", not(containsString("Exception")));
    }

    @Test
    void bodyThatIsNotJsonIsUnsupported() {
        api().contentType(ContentType.TEXT).body("remind me").post("/v1/reminders").then()
                .statusCode(415)
                .contentType("application/problem+json")
                .body("type", equalTo("urn:tickler:problem:unsupported-media-type"))
                .body("status", equalTo(415));
    }

    @Test
    void bodyOverSixtyFourKibibytesIsTooLarge() {
        String padding = " ".repeat(64 * 1024);
        api().body("{\"user_id\": \"u\"" + padding + "}").post("/v1/reminders").then()
                .statusCode(413)
                .contentType("application/problem+json")
                .body("type", equalTo("urn:tickler:problem:payload-too-large"))
                .body("status", equalTo(413))
                .body("detail", containsString("at most 65536"));
    }

    @Test
    void unknownPathIsAProblemToo() {
        api().get("/v1/nothing-here").then()
                .statusCode(404)
                .contentType("application/problem+json")
                .body("type", equalTo("urn:tickler:problem:not-found"));
    }

    @Test
    void unsupportedMethodIsAProblemToo() {
        api().put("/v1/reminders/1").then()
                .statusCode(405)
                .contentType("application/problem+json")
                .body("type", equalTo("urn:tickler:problem:method-not-allowed"));
    }

    private static void expectSingleFieldError(ValidatableResponse response, String field, String message) {
        response.statusCode(400)
                .contentType("application/problem+json")
                .body("type", equalTo("urn:tickler:problem:validation"))
                .body("title", equalTo("Request is not valid"))
                .body("status", equalTo(400))
                .body("detail", equalTo(field + ": " + message))
                .body("errors", equalTo(List.of(Map.of("field", field, "message", message))))
                .body("errors.field", not(hasItem("request")));
    }
}
