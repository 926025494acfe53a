package dev.tickler.schedule;

import static dev.tickler.schedule.Schedules.occurrences;
import static dev.tickler.schedule.Schedules.schedule;
import static dev.tickler.testing.Api.api;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsInAnyOrder;
import static org.hamcrest.Matchers.endsWith;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.everyItem;
import static org.hamcrest.Matchers.nullValue;

import java.time.LocalDate;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import jakarta.inject.Inject;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;

import dev.tickler.testing.AtOnce;
import dev.tickler.testing.Database;
import dev.tickler.testing.FutureDates;

/**
 * POST /v1/schedules is registered once per (user_id, template, rrule, start, tz), as a reminder is per (user_id,
 * template, fire_at) (docs/schedules.md, "Registering once"): a retry answers the schedule made, a different body is a
 * 409 naming the fields, a schedule that has ended says so, and a unique index, not a check before the insert, decides
 * a race.
 */
@QuarkusTest
class ScheduleRegistrationTest {

    @Inject
    Database database;

    private final Schedules.Created created = new Schedules.Created();

    @AfterEach
    void endSchedules() {
        created.endAll();
    }

    private static Map<String, Object> daily() {
        LocalDate day = FutureDates.day();
        Map<String, Object> body = schedule(day + "T09:00", "Europe/Berlin", "FREQ=DAILY;BYHOUR=9,18");
        body.put("data", Map.of("plant", "fern"));
        body.put("expires_after", "PT2H");
        return body;
    }

    @Test
    void theSamePostAgainAnswersTheScheduleMadeAndMakesNoMoreOccurrences() {
        Map<String, Object> body = daily();
        long id = created.create(body);
        // the same rule written another way is the same rule; the same duration another way the same duration
        Map<String, Object> again = new HashMap<>(body);
        again.put("rrule", "RRULE:FREQ=DAILY;INTERVAL=1;BYHOUR=18,9");
        again.put("expires_after", "PT120M");

        api().body(again).post("/v1/schedules").then().statusCode(200)
                .header("Location", endsWith("/v1/schedules/" + id))
                .body("id", equalTo((int) id)).body("version", equalTo(0));

        assertThat(schedulesOf(body)).isOne();
        assertThat(occurrences((String) body.get("user_id"), id)).hasSize(2);
    }

    @Test
    void anotherBodyIsAConflictNamingTheFieldsAndTheSchedule() {
        Map<String, Object> body = daily();
        long id = created.create(body);
        Map<String, Object> other = new HashMap<>(body);
        other.put("channel", "sms");
        other.put("data", Map.of("plant", "cactus"));
        other.put("expires_after", "PT1H");
        other.put("dst", Map.of("gap", "skip"));
        other.put("catch_up", "all");

        api().body(other).post("/v1/schedules").then().statusCode(409).contentType("application/problem+json")
                .body("type", equalTo("urn:tickler:problem:registration-differs"))
                .body("schedule_id", equalTo((int) id))
                .body("reminder_id", nullValue())
                .body("errors.field", containsInAnyOrder("channel", "data", "expires_after", "dst", "catch_up"))
                .body("errors.message", everyItem(equalTo("differs from schedule " + id + "'s")));

        Schedules.get(id).statusCode(200).body("channel", equalTo("email")).body("data.plant", equalTo("fern"));
        assertThat(schedulesOf(body)).isOne();
    }

    @Test
    void anotherStartRuleOrZoneIsAnotherSchedule() {
        Map<String, Object> body = daily();
        long id = created.create(body);
        for (String field : List.of("start", "rrule", "tz", "template")) {
            Map<String, Object> other = new HashMap<>(body);
            other.put(field, switch (field) {
                case "start" -> FutureDates.day().plusDays(1) + "T09:00";
                case "rrule" -> "FREQ=DAILY;BYHOUR=9";
                case "tz" -> "Europe/Paris";
                default -> "feed_cat";
            });
            assertThat(created.create(other)).as(field).isNotEqualTo(id);
        }
    }

    @Test
    void aRepeatOfAScheduleThatEndedSaysSo() {
        Map<String, Object> body = daily();
        long id = Schedules.createdId(body);
        api().delete("/v1/schedules/" + id).then().statusCode(200).body("state", equalTo("ended"));

        api().body(body).post("/v1/schedules").then().statusCode(409)
                .body("type", equalTo("urn:tickler:problem:registration-cancelled"))
                .body("schedule_id", equalTo((int) id));
        assertThat(schedulesOf(body)).isOne();
    }

    @Test
    void concurrentIdenticalPostsMakeOneSchedule() throws Exception {
        Map<String, Object> body = daily();
        List<Map.Entry<Integer, Long>> answers = AtOnce.run(8, caller -> {
            var response = api().body(body).post("/v1/schedules");
            return Map.entry(response.statusCode(), response.jsonPath().getLong("id"));
        });
        List<Long> ids = answers.stream().map(Map.Entry::getValue).toList();
        created.add(ids.get(0));

        assertThat(ids).containsOnly(ids.get(0));
        assertThat(answers).extracting(Map.Entry::getKey).containsOnly(201, 200)
                .filteredOn(status -> status == 201).hasSize(1);
        assertThat(schedulesOf(body)).isOne();
        assertThat(occurrences((String) body.get("user_id"), ids.get(0))).hasSize(2);
    }

    @Test
    void aPatchOntoAnotherSchedulesRuleIsAConflictAndChangesNothing() {
        Map<String, Object> body = daily();
        created.create(body);
        Map<String, Object> other = new HashMap<>(body);
        other.put("rrule", "FREQ=DAILY;BYHOUR=9");
        long otherId = created.create(other);

        api().body(Map.of("rrule", body.get("rrule"))).patch("/v1/schedules/" + otherId).then().statusCode(409)
                .body("type", equalTo("urn:tickler:problem:schedule-taken"));
        Schedules.get(otherId).statusCode(200).body("rrule", equalTo("FREQ=DAILY;BYHOUR=9"))
                .body("version", equalTo(0));
    }

    private long schedulesOf(Map<String, Object> body) {
        return database.count("SELECT count(*) FROM schedules WHERE user_id = $1", body.get("user_id"));
    }
}
