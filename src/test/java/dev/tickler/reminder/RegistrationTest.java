package dev.tickler.reminder;

import static dev.tickler.testing.Api.api;
import static dev.tickler.testing.Api.create;
import static dev.tickler.testing.Api.createdId;
import static dev.tickler.testing.Api.publishedFor;
import static dev.tickler.testing.Api.reminderAt;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.endsWith;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.matchesPattern;
import static org.hamcrest.Matchers.nullValue;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.Month;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;

import dev.tickler.emulator.PublishedMessage;
import dev.tickler.testing.Api;
import dev.tickler.testing.AtOnce;
import dev.tickler.testing.FutureDates;

@QuarkusTest
class RegistrationTest {

    @Test
    void reminderDueWithinAWeekIsCreatedAndHandedOffWithItsDelayAndPublishKey() {
        Instant fireAt = Instant.now().plus(Duration.ofHours(2));
        Map<String, Object> body = reminderAt(fireAt);
        body.put("tz", "Europe/Berlin");
        body.put("data", Map.of("plan", "pro", "days_left", 3));

        JsonPath created = create(body)
                .statusCode(201)
                .header("Location", matchesPattern(".*/v1/reminders/\\d+$"))
                .contentType("application/json")
                .body("user_id", equalTo(body.get("user_id")))
                .body("channel", equalTo("email"))
                .body("template", equalTo("trial_ending"))
                .body("fire_at", equalTo(body.get("fire_at")))
                .body("tz", equalTo("Europe/Berlin"))
                .body("data.plan", equalTo("pro"))
                .body("data.days_left", equalTo(3))
                .body("state", equalTo("handed_off"))
                .body("version", equalTo(0))
                .body("attempts", equalTo(0))
                .body("message_id", matchesPattern(".+"))
                .body("last_error", nullValue())
                .body("expires_at", nullValue())
                .body("sent_at", nullValue())
                .body("schedule_id", nullValue())
                .body("occurrence", nullValue())
                .body("key", nullValue())
                .body("tags", empty())
                .extract().jsonPath();
        long id = created.getLong("id");
        assertThat(created.getString("created_at")).endsWith("Z");
        assertThat(created.getString("updated_at")).endsWith("Z");
        assertThat(created.getMap("$")).containsOnlyKeys("id", "tenant", "user_id", "channel", "template", "fire_at", "tz",
                "fire_at_local", "data", "state", "version", "attempts", "message_id", "last_error", "expires_at",
                "created_at", "updated_at", "sent_at", "urgent", "schedule_id", "occurrence", "key", "tags");

        List<PublishedMessage> published = publishedFor(id);
        assertThat(published).hasSize(1);
        PublishedMessage message = published.get(0);
        assertThat(message.idempotencyKey()).isEqualTo("reminder:" + id + ":0:0");
        assertThat(message.messageId()).isEqualTo(created.getString("message_id"));
        assertThat(message.body().getLong("reminder_id")).isEqualTo(id);
        assertThat(message.body().getInteger("version")).isZero();
        assertThat(message.body().getString("tenant")).isEqualTo("default");
        assertThat(message.body().fieldNames()).containsOnly("reminder_id", "version", "tenant");
        long expectedDelay = Duration.between(message.publishedAt(), fireAt).toSeconds();
        assertThat(message.delaySeconds()).isBetween(expectedDelay - 1, expectedDelay + 1);
    }

    @Test
    void createdReminderCanBeReadBackWithTheSameRepresentation() {
        Map<String, Object> body = reminderAt(Instant.now().plus(Duration.ofDays(1)));
        JsonPath created = create(body).statusCode(201).extract().jsonPath();

        JsonPath read = Api.get(created.getLong("id")).statusCode(200).extract().jsonPath();

        assertThat(read.getMap("$")).isEqualTo(created.getMap("$"));
    }

    @Test
    void unknownReminderIsNotFoundAsAProblem() {
        Api.get(999_999_999L)
                .statusCode(404)
                .contentType("application/problem+json")
                .body("type", equalTo("urn:tickler:problem:not-found"))
                .body("title", equalTo("Not found"))
                .body("status", equalTo(404))
                .body("detail", equalTo("reminder 999999999 does not exist"));
    }

    @Test
    void repeatedRegistrationAnswersTheExistingReminderWithoutADuplicate() {
        Map<String, Object> body = reminderAt(Instant.now().plus(Duration.ofHours(3)));
        body.put("data", Map.of("plan", "pro"));
        long id = createdId(body);

        create(body)
                .statusCode(200)
                .header("Location", endsWith("/v1/reminders/" + id))
                .body("id", equalTo((int) id))
                .body("data.plan", equalTo("pro"));

        assertThat(publishedFor(id)).hasSize(1);
        api().queryParam("user_id", body.get("user_id")).get("/v1/reminders").then()
                .statusCode(200).body("items.size()", equalTo(1));
    }

    @Test
    void concurrentIdenticalRegistrationsCreateOneReminder() throws Exception {
        Map<String, Object> body = reminderAt(Instant.now().plus(Duration.ofHours(4)));

        List<Map.Entry<Integer, Long>> answers = AtOnce.run(8, caller -> {
            var response = api().body(body).post("/v1/reminders");
            return Map.entry(response.statusCode(), response.jsonPath().getLong("id"));
        });

        Set<Long> ids = new HashSet<>(answers.stream().map(Map.Entry::getValue).toList());
        assertThat(ids).hasSize(1);
        assertThat(answers).extracting(Map.Entry::getKey).containsOnly(201, 200)
                .filteredOn(status -> status == 201).hasSize(1);
        assertThat(publishedFor(ids.iterator().next())).hasSize(1);
    }

    @Test
    void sameInstantWrittenWithAnotherOffsetIsTheSameRegistration() {
        LocalDate day = FutureDates.day();
        Map<String, Object> body = reminderAt(FutureDates.at(day, 8));
        long id = createdId(body);

        body.put("fire_at", day + "T09:00:00+01:00");
        create(body).statusCode(200).body("id", equalTo((int) id));
    }

    @Test
    void pastFireAtIsAcceptedAndHandedOffWithNoDelay() {
        long id = createdId(reminderAt(Instant.now().minus(Duration.ofMinutes(5))));

        Api.get(id).statusCode(200).body("state", equalTo("handed_off"));
        assertThat(publishedFor(id)).singleElement()
                .satisfies(message -> assertThat(message.delaySeconds()).isZero());
    }

    @Test
    void localTimeIsReadInItsZone() {
        LocalDate winter = FutureDates.next(Month.DECEMBER, 1);
        create(atLocalTime(winter + "T09:00", "Europe/Berlin")).statusCode(201)
                .body("fire_at", equalTo(winter + "T08:00:00Z"))
                .body("fire_at_local", equalTo(winter + "T09:00:00+01:00"))
                .body("tz", equalTo("Europe/Berlin"));
    }

    @Test
    void localTimeInADaylightSavingGapMovesForwardByTheGap() {
        LocalDate summerTimeBegins = FutureDates.lastSundayOf(Month.MARCH);
        create(atLocalTime(summerTimeBegins + "T02:30", "Europe/Berlin")).statusCode(201)
                .body("fire_at", equalTo(summerTimeBegins + "T01:30:00Z"))
                .body("fire_at_local", equalTo(summerTimeBegins + "T03:30:00+02:00"));
    }

    @Test
    void localTimeInADaylightSavingOverlapTakesTheEarlierOffset() {
        LocalDate summerTimeEnds = FutureDates.lastSundayOf(Month.OCTOBER);
        create(atLocalTime(summerTimeEnds + "T02:30", "Europe/Berlin")).statusCode(201)
                .body("fire_at", equalTo(summerTimeEnds + "T00:30:00Z"))
                .body("fire_at_local", equalTo(summerTimeEnds + "T02:30:00+02:00"));
    }

    @Test
    void zoneDefaultsToUtc() {
        LocalDate day = FutureDates.day();
        create(atLocalTime(day + "T09:00:00", null)).statusCode(201)
                .body("tz", equalTo("UTC"))
                .body("fire_at", equalTo(day + "T09:00:00Z"))
                .body("fire_at_local", equalTo(day + "T09:00:00Z"));
    }

    @Test
    void expiresAfterSetsExpiresAtFromFireAt() {
        LocalDate day = FutureDates.day();
        Map<String, Object> body = reminderAt(FutureDates.at(day, 10));
        body.put("expires_after", "PT6H");

        create(body).statusCode(201).body("expires_at", equalTo(day + "T16:00:00Z"));
    }

    @Test
    void channelsGoToTheirConfiguredQueues() {
        Map<String, Object> body = reminderAt(Instant.now().plus(Duration.ofMinutes(30)));
        body.put("channel", "sms");
        long id = createdId(body);

        assertThat(publishedFor(id, "sms-reminders")).hasSize(1);
        assertThat(publishedFor(id, Api.DEFAULT_QUEUE)).isEmpty();
    }

    /** A registration by wall-clock time; a null zone leaves tz out. */
    private static Map<String, Object> atLocalTime(String localTime, String tz) {
        Map<String, Object> body = reminderAt(Instant.now());
        body.remove("fire_at");
        body.put("local_time", localTime);
        if (tz != null) {
            body.put("tz", tz);
        }
        return body;
    }
}
