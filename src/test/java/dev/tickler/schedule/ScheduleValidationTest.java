package dev.tickler.schedule;

import static dev.tickler.schedule.Schedules.create;
import static dev.tickler.schedule.Schedules.createdId;
import static dev.tickler.schedule.Schedules.schedule;
import static dev.tickler.testing.Api.api;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;

import java.time.LocalDate;
import java.time.format.DateTimeFormatter;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.ValidatableResponse;

import dev.tickler.testing.Database;
import dev.tickler.testing.FutureDates;

/** Every bad field of a schedule is named in a problem document, and a refused request writes nothing. */
@QuarkusTest
class ScheduleValidationTest {

    /** A start beyond the hand-off window, on a day the calendar will not overtake: valid but for the bad field. */
    private static final LocalDate DAY = FutureDates.day();
    private static final String START = DAY + "T09:00";

    @Inject
    Database database;

    static List<Arguments> invalidFields() {
        return List.of(
                Arguments.of("user_id", null, "is required"),
                Arguments.of("user_id", "u".repeat(129), "must be 1 to 128 characters"),
                Arguments.of("channel", "fax", "must be email, sms or push"),
                Arguments.of("template", "water plants!", "may only hold A-Z, a-z, 0-9, '_', '.' and '-'"),
                Arguments.of("tz", null, "is required"),
                Arguments.of("tz", "Mars/Olympus", "must be an IANA time zone id, e.g. Europe/Berlin"),
                Arguments.of("tz", "+01:00", "must be an IANA time zone id, e.g. Europe/Berlin"),
                Arguments.of("start", null, "is required"),
                Arguments.of("start", START + ":00.5", "to the second"),
                Arguments.of("start", START + ":00Z", "without offset"),
                Arguments.of("start", "1969-12-31T23:00", "from 1970-01-01T00:00:00"),
                Arguments.of("rrule", null, "is required"),
                Arguments.of("rrule", "FREQ=YEARLY", "FREQ=YEARLY is not supported"),
                Arguments.of("rrule", "FREQ=DAILY;BYSETPOS=1", "BYSETPOS is not supported"),
                Arguments.of("rrule", "FREQ=WEEKLY;BYDAY=-1FR", "BYDAY=-1FR has an ordinal"),
                Arguments.of("rrule", "FREQ=DAILY;COUNT=0", "COUNT=0 must be 1 or more"),
                Arguments.of("rrule", "FREQ=DAILY;UNTIL=20261301", "UNTIL=20261301 is not a valid date"),
                Arguments.of("catch_up", "some", "must be all, latest or none"),
                Arguments.of("expires_after", "-PT1H", "must be a positive ISO-8601 duration, e.g. PT6H or P1D"));
    }

    @ParameterizedTest(name = "{0} = {1}")
    @MethodSource("invalidFields")
    void invalidFieldIsRefusedWithItsNameAndWritesNothing(String field, String value, String message) {
        Map<String, Object> body = schedule(START, "Europe/Berlin", "FREQ=DAILY");
        body.put(field, value);

        refused(create(body), field, message);
        assertNothingWrittenFor((String) body.get("user_id"));
    }

    @Test
    void badDstValuesAreNamedByTheirPart() {
        Map<String, Object> body = schedule(START, "Europe/Berlin", "FREQ=DAILY");
        body.put("dst", Map.of("gap", "jump", "overlap", "middle"));

        create(body).statusCode(400)
                .body("errors.field", hasItem("dst.gap")).body("errors.field", hasItem("dst.overlap"))
                .body("errors.message", hasItem("must be shift or skip"))
                .body("errors.message", hasItem("must be first or last"));
        assertNothingWrittenFor((String) body.get("user_id"));
    }

    @Test
    void unknownFieldsAreRefusedByName() {
        Map<String, Object> body = schedule(START, "Europe/Berlin", "FREQ=DAILY");
        body.put("fire_at", DAY + "T08:00:00Z");
        refused(create(body), "fire_at", "unknown field");

        Map<String, Object> dst = schedule(START, "Europe/Berlin", "FREQ=DAILY");
        dst.put("dst", Map.of("gap", "skip", "spring", "forward"));
        refused(create(dst), "dst.spring", "unknown field");
        assertNothingWrittenFor((String) body.get("user_id"));
    }

    @Test
    void dataOverSixteenKibibytesIsRefused() {
        Map<String, Object> body = schedule(START, "Europe/Berlin", "FREQ=DAILY");
        body.put("data", Map.of("text", "x".repeat(16 * 1024)));

        refused(create(body), "data", "must be at most 16384 bytes when serialized");
        assertNothingWrittenFor((String) body.get("user_id"));
    }

    @Test
    void aRuleWithoutAnyOccurrenceIsRefused() {
        String dayBefore = DateTimeFormatter.BASIC_ISO_DATE.format(DAY.minusDays(1));
        Map<String, Object> body = schedule(START, "Europe/Berlin", "FREQ=DAILY;UNTIL=" + dayBefore);

        refused(create(body), "rrule", "has no occurrence");
        assertNothingWrittenFor((String) body.get("user_id"));
    }

    @Test
    void patchIsValidatedAndARefusedPatchWritesNothing() {
        Map<String, Object> body = schedule(START, "UTC", "FREQ=DAILY");
        long id = createdId(body);
        String path = "/v1/schedules/" + id;

        refused(api().body(Map.of()).patch(path).then(), "body", "give at least one of");
        refused(api().body(Map.of("user_id", "someone")).patch(path).then(), "user_id", "cannot be changed");
        refused(api().body(Map.of("rrule", "FREQ=HOURLY")).patch(path).then(), "rrule", "FREQ=HOURLY");
        refused(api().body(Map.of("start", DAY.toString())).patch(path).then(), "start", "to the second");
        api().body(Map.of("data", Map.of())).patch("/v1/schedules/999999999").then().statusCode(404);

        Schedules.get(id).body("version", equalTo(0)).body("rrule", equalTo("FREQ=DAILY"));
        assertThat(database.count("select count(*) from reminders where schedule_id = $1", id)).isEqualTo(2);
        api().delete(path).then().statusCode(200);
    }

    @Test
    void queryParametersAreValidated() {
        refused(api().get("/v1/schedules").then(), "user_id", "is required");
        refused(api().queryParam("user_id", "u").queryParam("limit", 501).get("/v1/schedules").then(), "limit",
                "from 1 to 500");
        refused(api().queryParam("user_id", "u").queryParam("after", "nonsense").get("/v1/schedules").then(),
                "after", "cursor");
        long id = createdId(schedule(START, "UTC", "FREQ=DAILY"));
        for (String count : new String[] { "0", "101", "ten" }) {
            refused(api().queryParam("count", count).get("/v1/schedules/" + id + "/preview").then(), "count",
                    "from 1 to 100");
        }
        api().queryParam("count", 100).get("/v1/schedules/" + id + "/preview").then().statusCode(200)
                .body("items.size()", equalTo(100));
        api().get("/v1/schedules/999999999/preview").then().statusCode(404);
        api().delete("/v1/schedules/" + id).then().statusCode(200);
    }

    @Test
    void withoutAKeyNothingIsAnswered() {
        io.restassured.RestAssured.given().contentType("application/json")
                .body(new HashMap<>(schedule(START, "UTC", "FREQ=DAILY"))).post("/v1/schedules")
                .then().statusCode(401);
    }

    private static void refused(ValidatableResponse response, String field, String message) {
        response.statusCode(400).contentType("application/problem+json")
                .body("errors.field", hasItem(field))
                .body("errors.find { it.field == '" + field + "' }.message", containsString(message));
    }

    private void assertNothingWrittenFor(String userId) {
        assertThat(database.count("select count(*) from schedules where user_id = $1", userId)).isZero();
        assertThat(database.count("select count(*) from reminders where user_id = $1", userId)).isZero();
    }
}
