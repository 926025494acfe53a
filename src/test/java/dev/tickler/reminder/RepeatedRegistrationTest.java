package dev.tickler.reminder;

import static dev.tickler.testing.Api.api;
import static dev.tickler.testing.Api.create;
import static dev.tickler.testing.Api.createdId;
import static dev.tickler.testing.Api.publishedFor;
import static dev.tickler.testing.Api.reminderAt;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsInAnyOrder;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.everyItem;
import static org.hamcrest.Matchers.nullValue;
import static org.hamcrest.Matchers.startsWith;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;

import dev.tickler.testing.Api;
import dev.tickler.testing.AtOnce;
import dev.tickler.testing.Database;

/**
 * A registration repeated under the same (user_id, template, fire_at) (docs/api.md, "Retrying a registration"): the
 * same body is a safe retry and answers the stored reminder; another body is a 409 naming the fields that differ; a
 * repeat of a cancelled reminder is a 409 of its own, so that no 2xx is read as "scheduled" when nothing will be sent.
 */
@QuarkusTest
class RepeatedRegistrationTest {

    private static final String DIFFERS = "urn:tickler:problem:registration-differs";
    private static final String CANCELLED = "urn:tickler:problem:registration-cancelled";

    @Inject
    Database database;

    private static Map<String, Object> fullBody() {
        Map<String, Object> body = reminderAt(Instant.now().plus(Duration.ofHours(5)));
        body.put("tz", "Europe/Berlin");
        body.put("data", Map.of("plan", "pro", "days_left", 3));
        body.put("expires_after", "PT6H");
        body.put("tags", List.of("trial", "email"));
        return body;
    }

    @Test
    void theSameBodyAgainAnswersTheStoredReminderAndWritesNothing() {
        Map<String, Object> body = fullBody();
        JsonPath created = create(body).statusCode(201).extract().jsonPath();
        long id = created.getLong("id");

        // the same body in another spelling: another offset for the instant, data keys and tags in another order
        Map<String, Object> again = new HashMap<>(body);
        again.put("fire_at", ZonedDateTime.ofInstant(Instant.parse((String) body.get("fire_at")),
                ZoneId.of("Asia/Tokyo")).toOffsetDateTime().toString());
        again.put("data", Map.of("days_left", 3, "plan", "pro"));
        again.put("tags", List.of("email", "trial", "email"));
        JsonPath repeated = create(again).statusCode(200).extract().jsonPath();

        assertThat(repeated.getMap("$")).isEqualTo(created.getMap("$"));
        assertThat(publishedFor(id)).hasSize(1);
        assertThat(database.count("SELECT count(*) FROM reminders WHERE user_id = $1", body.get("user_id"))).isOne();
    }

    @Test
    void anotherBodyIsAConflictThatNamesEveryFieldThatDiffersAndChangesNothing() {
        Map<String, Object> body = fullBody();
        long id = createdId(body);

        Map<String, Object> other = new HashMap<>(body);
        other.put("channel", "sms");
        other.put("tz", "UTC");
        other.put("data", Map.of("plan", "basic"));
        other.put("expires_after", "PT1H");
        other.put("urgent", true);
        other.put("tags", List.of("trial"));
        create(other).statusCode(409).contentType("application/problem+json")
                .body("type", equalTo(DIFFERS))
                .body("title", equalTo("Registered before with a different body"))
                .body("status", equalTo(409))
                .body("reminder_id", equalTo((int) id))
                .body("errors.field", containsInAnyOrder("channel", "tz", "data", "expires_after", "urgent", "tags"))
                .body("errors.message", everyItem(equalTo("differs from reminder " + id + "'s")))
                .body("detail", startsWith("reminder " + id + " was registered before with this user_id, template"
                        + " and fire_at and another channel, tz, data, expires_after, urgent, tags; a retry must repeat"
                        + " the same body, and PATCH /v1/reminders/" + id + " changes it"));

        Api.get(id).statusCode(200).body("channel", equalTo("email")).body("data.plan", equalTo("pro"))
                .body("version", equalTo(0));
        assertThat(publishedFor(id)).hasSize(1);
    }

    @Test
    void onlyTheFieldThatDiffersIsNamed() {
        Map<String, Object> body = fullBody();
        long id = createdId(body);
        Map<String, Object> other = new HashMap<>(body);
        other.put("data", Map.of("plan", "pro", "days_left", 2));

        create(other).statusCode(409).body("errors.field", containsInAnyOrder("data"))
                .body("reminder_id", equalTo((int) id));
        // a body left without tz is another zone (UTC) than the stored one
        other = new HashMap<>(body);
        other.remove("tz");
        create(other).statusCode(409).body("errors.field", containsInAnyOrder("tz"));
    }

    @Test
    void aRepeatOfACancelledReminderSaysItWasCancelledWhateverItsBody() {
        Map<String, Object> body = fullBody();
        long id = createdId(body);
        api().delete("/v1/reminders/" + id).then().statusCode(200).body("state", equalTo("cancelled"));

        create(body).statusCode(409).contentType("application/problem+json")
                .body("type", equalTo(CANCELLED))
                .body("title", equalTo("Registered before and cancelled since"))
                .body("reminder_id", equalTo((int) id))
                .body("errors", nullValue())
                .body("detail", equalTo("reminder " + id + ", registered before with this user_id, template and"
                        + " fire_at, was cancelled and will not be sent; to remind again, register another fire_at,"
                        + " or under a key (PUT /v1/reminders/by-key/{key})"));
        Map<String, Object> other = new HashMap<>(body);
        other.put("data", Map.of("plan", "basic"));
        create(other).statusCode(409).body("type", equalTo(CANCELLED));

        Api.get(id).statusCode(200).body("state", equalTo("cancelled"));
        assertThat(database.count("SELECT count(*) FROM reminders WHERE user_id = $1", body.get("user_id"))).isOne();
    }

    @Test
    void aBatchAnswersEachRepeatAsASinglePostWould() {
        Map<String, Object> stored = fullBody();
        long storedId = createdId(stored);
        Map<String, Object> storedOtherData = new HashMap<>(stored);
        storedOtherData.put("data", Map.of("plan", "basic"));
        Map<String, Object> cancelled = fullBody();
        long cancelledId = createdId(cancelled);
        api().delete("/v1/reminders/" + cancelledId).then().statusCode(200);
        Map<String, Object> fresh = fullBody();
        Map<String, Object> freshOtherChannel = new HashMap<>(fresh);
        freshOtherChannel.put("channel", "push");

        JsonPath answer = api().body(Map.of("items", List.of(stored, storedOtherData, cancelled, fresh, fresh,
                        freshOtherChannel)))
                .post("/v1/reminders/batch").then().statusCode(200).extract().jsonPath();

        assertThat(answer.getList("items.status", Integer.class)).containsExactly(200, 409, 409, 201, 200, 409);
        assertThat(answer.getLong("items[0].reminder.id")).isEqualTo(storedId);
        assertThat(answer.getString("items[1].problem.type")).isEqualTo(DIFFERS);
        assertThat(answer.getLong("items[1].problem.reminder_id")).isEqualTo(storedId);
        assertThat(answer.getList("items[1].problem.errors.field")).containsExactly("data");
        assertThat(answer.getString("items[2].problem.type")).isEqualTo(CANCELLED);
        assertThat(answer.getLong("items[2].problem.reminder_id")).isEqualTo(cancelledId);
        long freshId = answer.getLong("items[3].reminder.id");
        assertThat(answer.getLong("items[4].reminder.id")).isEqualTo(freshId);
        assertThat(answer.getString("items[5].problem.type")).isEqualTo(DIFFERS);
        assertThat(answer.getLong("items[5].problem.reminder_id")).isEqualTo(freshId);
        assertThat(answer.getList("items[5].problem.errors.field")).containsExactly("channel");
        assertThat(answer.getString("items[5].reminder")).isNull();
        Api.get(freshId).statusCode(200).body("channel", equalTo("email"));
        Api.get(storedId).statusCode(200).body("data.plan", equalTo("pro"));
    }

    /** One racing registration's answer: its status, the plan its body carried, and the reminder it names. */
    private record Raced(int status, String plan, long id) {
    }

    @Test
    void racingRegistrationsOfTwoBodiesMakeOneReminderAndTheLosersBodyIsRefused() throws Exception {
        Map<String, Object> first = fullBody();
        Map<String, Object> second = new HashMap<>(first);
        second.put("data", Map.of("plan", "basic"));
        List<Raced> results = AtOnce.run(8, caller -> {
            Map<String, Object> body = caller % 2 == 0 ? first : second;
            var response = api().body(body).post("/v1/reminders");
            return new Raced(response.statusCode(), (String) ((Map<?, ?>) body.get("data")).get("plan"),
                    response.jsonPath().getLong(response.statusCode() == 409 ? "reminder_id" : "id"));
        });

        assertThat(results).extracting(Raced::id).containsOnly(results.get(0).id());
        List<Raced> created = results.stream().filter(result -> result.status() == 201).toList();
        assertThat(created).hasSize(1);
        String winner = created.get(0).plan();
        assertThat(results).filteredOn(result -> result.plan().equals(winner)).extracting(Raced::status)
                .containsOnly(201, 200);
        assertThat(results).filteredOn(result -> !result.plan().equals(winner)).extracting(Raced::status)
                .containsOnly(409);
        Api.get(created.get(0).id()).statusCode(200).body("data.plan", equalTo(winner));
    }
}
