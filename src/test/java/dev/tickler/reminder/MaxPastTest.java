package dev.tickler.reminder;

import static dev.tickler.testing.Api.api;
import static dev.tickler.testing.Api.create;
import static dev.tickler.testing.Api.createdId;
import static dev.tickler.testing.Api.newKey;
import static dev.tickler.testing.Api.put;
import static dev.tickler.testing.Api.reminderAt;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsInAnyOrder;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.startsWith;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import io.restassured.response.ValidatableResponse;

import dev.tickler.testing.Api;
import dev.tickler.testing.Database;

/**
 * tickler.api.max-past (PT24H in tests as by default, docs/contract.md#registration-api): a fire_at further in the
 * past is a 400 on the field that gave it, on registration, PATCH, batch items and PUT by key, and writes nothing. The
 * exact bound is checked on a pinned clock (PastLimitTest); here the real clock runs on between the test and the check,
 * so the bound is approached from the allowed side by a few seconds.
 */
@QuarkusTest
class MaxPastTest {

    private static final Duration MAX_PAST = Duration.ofHours(24);
    private static final String TOO_FAR_BACK = "must lie at most PT24H in the past (tickler.api.max-past)";

    @Inject
    Database database;

    @Test
    void aFireAtTwentyHoursAgoIsRegisteredAndDueAtOnce() {
        create(reminderAt(Instant.now().minus(Duration.ofHours(20)))).statusCode(201)
                .body("state", equalTo("handed_off"));
    }

    @Test
    void aFireAtJustInsideTheBoundIsRegistered() {
        create(reminderAt(Instant.now().minus(MAX_PAST).plusSeconds(5))).statusCode(201);
    }

    @Test
    void aFireAtOneSecondBeyondTheBoundIsRefusedAndNothingIsStored() {
        Map<String, Object> body = reminderAt(Instant.now().minus(MAX_PAST).minusSeconds(1));

        refusedOn(body, "fire_at").body("errors[0].message", startsWith(TOO_FAR_BACK));
    }

    @Test
    void aYearTypoIsRefusedInsteadOfSentAtOnce() {
        Instant meant = Instant.now().plus(Duration.ofDays(1));
        Map<String, Object> body = reminderAt(meant.atOffset(ZoneOffset.UTC).minusYears(1).toInstant());

        refusedOn(body, "fire_at").body("errors[0].message", startsWith(TOO_FAR_BACK));
    }

    @Test
    void theFirstDayOfTheCalendarIsRefused() {
        Map<String, Object> body = reminderAt(Instant.now());
        body.put("fire_at", "0001-01-01T00:00:00Z");

        refusedOn(body, "fire_at");
    }

    @Test
    void aLocalTimeTooFarBackInItsZoneIsRefusedOnLocalTime() {
        Map<String, Object> body = reminderAt(Instant.now());
        body.remove("fire_at");
        body.put("tz", "Pacific/Kiritimati");
        body.put("local_time", LocalDateTime.now(ZoneId.of("Pacific/Kiritimati")).minusHours(25)
                .truncatedTo(ChronoUnit.SECONDS).toString());

        refusedOn(body, "local_time").body("errors[0].message", startsWith(TOO_FAR_BACK));
    }

    @Test
    void everyFieldErrorOfTheBodyComesInOneAnswer() {
        Map<String, Object> body = reminderAt(Instant.now().minus(Duration.ofDays(3)));
        body.put("channel", "fax");

        create(body).statusCode(400).body("errors.field", containsInAnyOrder("channel", "fire_at"));
    }

    @Test
    void aPatchMayNotMoveAReminderTooFarBackAndChangesNothing() {
        Map<String, Object> body = reminderAt(Instant.now().plus(Duration.ofDays(10)));
        body.put("tz", "Europe/Berlin");
        long id = createdId(body);
        String tooFarBack = Instant.now().minus(MAX_PAST).minusSeconds(1).truncatedTo(ChronoUnit.SECONDS).toString();
        // local_time without tz is read in the stored zone, so the service checks it
        String localTooFarBack = LocalDateTime.now(ZoneId.of("Europe/Berlin")).minusDays(2)
                .truncatedTo(ChronoUnit.SECONDS).toString();

        api().body(Map.of("fire_at", tooFarBack)).patch("/v1/reminders/" + id).then().statusCode(400)
                .body("errors[0].field", equalTo("fire_at")).body("errors[0].message", startsWith(TOO_FAR_BACK));
        api().body(Map.of("local_time", localTooFarBack)).patch("/v1/reminders/" + id).then().statusCode(400)
                .body("errors[0].field", equalTo("local_time")).body("errors[0].message", startsWith(TOO_FAR_BACK));
        Api.get(id).statusCode(200).body("version", equalTo(0)).body("fire_at", equalTo(body.get("fire_at")));

        api().body(Map.of("fire_at", Instant.now().minus(Duration.ofHours(1)).truncatedTo(ChronoUnit.SECONDS)
                .toString())).patch("/v1/reminders/" + id).then().statusCode(200).body("version", equalTo(1));
    }

    @Test
    void aBatchItemTooFarBackIsRefusedAloneAndAPutByKeyToo() {
        Map<String, Object> good = reminderAt(Instant.now().plus(Duration.ofHours(1)));
        Map<String, Object> typo = reminderAt(Instant.now().minus(Duration.ofDays(365)));

        JsonPath answer = api().body(Map.of("items", List.of(good, typo))).post("/v1/reminders/batch").then()
                .statusCode(200).extract().jsonPath();

        assertThat(answer.getList("items.status", Integer.class)).containsExactly(201, 400);
        assertThat(answer.getString("items[1].problem.errors[0].field")).isEqualTo("fire_at");
        assertThat(answer.getString("items[1].problem.errors[0].message")).startsWith(TOO_FAR_BACK);
        assertThat(rowsOf(typo)).isZero();

        put(newKey(), typo).statusCode(400).body("errors[0].field", equalTo("fire_at"));
        assertThat(rowsOf(typo)).isZero();
    }

    private ValidatableResponse refusedOn(Map<String, Object> body, String field) {
        var refused = create(body).statusCode(400).contentType("application/problem+json")
                .body("type", equalTo("urn:tickler:problem:validation"))
                .body("errors.size()", equalTo(1))
                .body("errors[0].field", equalTo(field));
        assertThat(rowsOf(body)).isZero();
        return refused;
    }

    private long rowsOf(Map<String, Object> body) {
        return database.count("SELECT count(*) FROM reminders WHERE user_id = $1", body.get("user_id"));
    }
}
