package dev.tickler.reminder;

import static dev.tickler.testing.Api.api;
import static dev.tickler.testing.Api.create;
import static dev.tickler.testing.Api.createdId;
import static dev.tickler.testing.Api.reminderAt;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import jakarta.inject.Inject;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;

import dev.tickler.testing.Api;
import dev.tickler.testing.Database;
import dev.tickler.testing.FutureDates;

/**
 * Input at the edges of what Postgres and java.time can hold is refused with a field error before anything is
 * written: instants outside 1970–9999, durations that overflow, NUL and lone surrogates.
 */
@QuarkusTest
class ExtremeInputTest {

    private static final String RANGE = "must be between 1970-01-01T00:00:00Z and 9999-12-30T23:59:59Z";

    @Inject
    Database database;

    static List<Arguments> instantsOutsideTheRange() {
        return List.of(
                Arguments.of("1700-01-01T00:00:00Z", RANGE),
                Arguments.of("1969-12-31T23:59:59Z", RANGE),
                Arguments.of("9999-12-31T00:00:00Z", RANGE),
                Arguments.of("+10000-01-01T00:00:00Z", RANGE),
                Arguments.of("+294277-01-01T00:00:00Z", RANGE),
                Arguments.of("+999999999-12-31T23:59:59Z", RANGE),
                Arguments.of("+1000000-01-01T00:00:00Z", RANGE),
                Arguments.of("-999999999-01-01T00:00:00Z", RANGE),
                Arguments.of("+999999999-12-31T23:59:59-18:00", RANGE),
                Arguments.of("+1000000000-01-01T00:00:00Z",
                        "must be an ISO-8601 instant with an offset, e.g. 2026-12-01T08:00:00Z"));
    }

    @ParameterizedTest(name = "fire_at {0}")
    @MethodSource("instantsOutsideTheRange")
    void fireAtOutsideTheSupportedRangeIsRefusedAndNothingIsStored(String fireAt, String message) {
        Map<String, Object> body = reminderAt(Instant.now());
        body.put("fire_at", fireAt);
        body.put("tz", "Pacific/Kiritimati");

        expectFieldErrorAndNoRow(body, "fire_at", message);
    }

    @ParameterizedTest(name = "local_time {0}")
    @ValueSource(strings = { "1969-12-31T23:00", "9999-12-31T12:00", "+999999999-12-31T23:59:59",
            "-999999999-01-01T00:00" })
    void localTimeOutsideTheSupportedRangeIsRefused(String localTime) {
        Map<String, Object> body = reminderAt(Instant.now());
        body.remove("fire_at");
        body.put("local_time", localTime);
        body.put("tz", "Asia/Tokyo");

        expectFieldErrorAndNoRow(body, "local_time", "must fall between 1970-01-01T00:00:00Z and 9999-12-30T23:59:59Z"
                + " in its zone");
    }

    @Test
    void theLastSupportedInstantRendersInTheEasternmostZone() {
        Map<String, Object> body = reminderAt(Instant.now());
        body.put("fire_at", "9999-12-30T23:59:59Z");
        body.put("tz", "Pacific/Kiritimati");

        create(body).statusCode(201).body("fire_at_local", equalTo("9999-12-31T13:59:59+14:00"));
    }

    @ParameterizedTest(name = "expires_after {0}")
    @ValueSource(strings = { "P999999999999D", "PT9999999999999999999H", "P2913000D" })
    void expiryPastTheSupportedRangeIsRefused(String expiresAfter) {
        Map<String, Object> body = reminderAt(Instant.now().plus(Duration.ofDays(1)));
        body.put("expires_after", expiresAfter);

        create(body).statusCode(400)
                .body("errors[0].field", equalTo("expires_after"));
        assertThat(rowsOf(body)).isZero();
    }

    @Test
    void patchThatWouldOverflowIsRefusedAndChangesNothing() {
        Map<String, Object> body = reminderAt(Instant.now().plus(Duration.ofDays(1)));
        body.put("expires_after", "PT1H");
        long id = createdId(body);

        api().body(Map.of("fire_at", "9999-12-30T23:30:00Z")).patch("/v1/reminders/" + id).then().statusCode(400)
                .body("errors[0].field", equalTo("expires_after"));
        api().body(Map.of("expires_after", "P999999999999D")).patch("/v1/reminders/" + id).then().statusCode(400)
                .body("errors[0].field", equalTo("expires_after"));
        api().body(Map.of("local_time", "9999-12-31T20:00")).patch("/v1/reminders/" + id).then().statusCode(400)
                .body("errors[0].field", equalTo("local_time"));
        api().body(Map.of("fire_at", "+999999999-12-31T23:59:59Z")).patch("/v1/reminders/" + id).then()
                .statusCode(400).body("errors[0].field", equalTo("fire_at"));

        Api.get(id).body("version", equalTo(0)).body("state", equalTo("handed_off"));
    }

    @ParameterizedTest(name = "user_id {0}")
    @ValueSource(strings = { "u\u0000x", "\u0000", "u\ud800", "\udc00u" })
    void userIdThatPostgresCannotStoreAsSentIsRefused(String userId) {
        Map<String, Object> body = reminderAt(Instant.now().plus(Duration.ofDays(1)));
        body.put("user_id", userId);

        long rowsBefore = database.count("SELECT count(*) FROM reminders");

        create(body).statusCode(400).body("errors[0].field", equalTo("user_id"));
        // Postgres cannot even be asked about such a user_id: count every row instead
        assertThat(database.count("SELECT count(*) FROM reminders")).isEqualTo(rowsBefore);
    }

    @ParameterizedTest(name = "data {0}")
    @MethodSource("unstorableData")
    void dataThatJsonbCannotStoreAsSentIsRefused(Map<String, Object> data) {
        Map<String, Object> body = reminderAt(Instant.now().plus(Duration.ofDays(1)));
        body.put("data", data);

        create(body).statusCode(400).body("errors[0].field", equalTo("data"));
        assertThat(rowsOf(body)).isZero();
    }

    static List<Map<String, Object>> unstorableData() {
        Map<String, Object> deep = Map.of("leaf", 1);
        for (int i = 0; i < 40; i++) {
            deep = Map.of("k", deep);
        }
        return List.of(Map.of("greeting", "hi\u0000there"), Map.of("na\u0000me", "x"),
                Map.of("list", List.of("ok", "\ud83d")), deep);
    }

    @Test
    void numberTooLargeForADoubleIsRefused() {
        String body = "{\"user_id\": \"" + Api.newUser() + "\", \"channel\": \"email\", \"template\": \"t\","
                + " \"fire_at\": \"" + FutureDates.at(FutureDates.day(), 0) + "\", \"data\": {\"n\": 1e400}}";

        api().body(body).post("/v1/reminders").then().statusCode(400).body("errors[0].field", equalTo("data"));
    }

    @ParameterizedTest(name = "user_id={0}")
    @ValueSource(strings = { "%00", "u%00x" })
    void listQueryWithNulIsRefused(String encodedUserId) {
        api().urlEncodingEnabled(false).get("/v1/reminders?user_id=" + encodedUserId).then().statusCode(400)
                .contentType("application/problem+json").body("errors[0].field", equalTo("user_id"));
    }

    @ParameterizedTest(name = "after={0}")
    @ValueSource(strings = { "KzEwMDAwMDAwMDAtMTItMzFUMjM6NTk6NTlafDE", "MTcwMC0wMS0wMVQwMDowMDowMFp8MQ",
            "MjAyNi0xMi0wMVQwODowMDowMFp8LTE" })
    void cursorOutsideTheSupportedRangeIsRefused(String after) {
        api().get("/v1/reminders?user_id=u&after=" + after).then().statusCode(400)
                .body("errors[0].field", equalTo("after"));
    }

    private void expectFieldErrorAndNoRow(Map<String, Object> body, String field, String message) {
        create(body).statusCode(400)
                .contentType("application/problem+json")
                .body("errors", equalTo(List.of(Map.of("field", field, "message", message))));
        assertThat(rowsOf(body)).isZero();
    }

    private long rowsOf(Map<String, Object> body) {
        return database.count("SELECT count(*) FROM reminders WHERE user_id = $1", body.get("user_id"));
    }
}
