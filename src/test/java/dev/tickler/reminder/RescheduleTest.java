package dev.tickler.reminder;

import static dev.tickler.testing.Api.api;
import static dev.tickler.testing.Api.createdId;
import static dev.tickler.testing.Api.publishedFor;
import static dev.tickler.testing.Api.reminderAt;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.Month;
import java.util.List;
import java.util.Map;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.ValidatableResponse;

import dev.tickler.emulator.PublishedMessage;
import dev.tickler.testing.Database;
import dev.tickler.testing.FutureDates;

@QuarkusTest
class RescheduleTest {

    @Inject
    Database database;

    /** A day beyond the hand-off window that the calendar will not overtake, and 08:00 UTC on it. */
    private final LocalDate day = FutureDates.day();
    private final Instant parked = FutureDates.at(day, 8);

    @Test
    void reschedulingAHandedOffReminderBumpsTheVersionAndPublishesTheNewVersion() {
        long id = createdId(reminderAt(Instant.now().plus(Duration.ofHours(1))));
        String newFireAt = Instant.now().plus(Duration.ofHours(5)).truncatedTo(java.time.temporal.ChronoUnit.SECONDS).toString();

        patch(id, Map.of("fire_at", newFireAt))
                .statusCode(200)
                .body("fire_at", equalTo(newFireAt))
                .body("version", equalTo(1))
                .body("state", equalTo("handed_off"));

        List<PublishedMessage> published = publishedFor(id);
        assertThat(published).extracting(PublishedMessage::idempotencyKey)
                .containsExactly("reminder:" + id + ":0:0", "reminder:" + id + ":1:0");
        assertThat(published.get(1).body().getInteger("version")).isEqualTo(1);
        assertThat(published.get(1).delaySeconds()).isBetween(5 * 3600L - 5, 5 * 3600L + 1);
    }

    @Test
    void reschedulingBeyondTheWeekParksTheNewVersion() {
        long id = createdId(reminderAt(Instant.now().plus(Duration.ofHours(1))));

        patch(id, Map.of("fire_at", FutureDates.at(day, 0).toString()))
                .statusCode(200)
                .body("state", equalTo("pending"))
                .body("version", equalTo(1))
                .body("message_id", nullValue());

        assertThat(publishedFor(id)).hasSize(1);
    }

    @Test
    void localTimeWithoutZoneIsReadInTheStoredZone() {
        Map<String, Object> body = reminderAt(parked);
        body.put("tz", "America/New_York");
        long id = createdId(body);
        LocalDate summer = FutureDates.next(Month.JULY, 4);

        patch(id, Map.of("local_time", summer + "T09:00"))
                .statusCode(200)
                .body("fire_at", equalTo(summer + "T13:00:00Z"))
                .body("fire_at_local", equalTo(summer + "T09:00:00-04:00"));
    }

    @Test
    void dataAloneCanChangeAndStillBumpsTheVersion() {
        long id = createdId(reminderAt(parked));

        patch(id, Map.of("data", Map.of("plan", "team")))
                .statusCode(200)
                .body("data.plan", equalTo("team"))
                .body("fire_at", equalTo(parked.toString()))
                .body("version", equalTo(1));
    }

    @Test
    void movedReminderKeepsItsExpiryWindowUnlessANewOneIsGiven() {
        Map<String, Object> body = reminderAt(parked);
        body.put("expires_after", "PT2H");
        long id = createdId(body);
        LocalDate later = day.plusMonths(1);

        patch(id, Map.of("fire_at", later + "T08:00:00Z")).statusCode(200)
                .body("expires_at", equalTo(later + "T10:00:00Z"));
        patch(id, Map.of("expires_after", "PT30M")).statusCode(200)
                .body("expires_at", equalTo(later + "T08:30:00Z"));
    }

    @Test
    void failedReminderCanBeRescheduledAndStartsAfresh() {
        long id = createdId(reminderAt(parked));
        database.setState(id, "failed");

        patch(id, Map.of("fire_at", parked.plus(Duration.ofDays(1)).toString()))
                .statusCode(200)
                .body("state", equalTo("pending"))
                .body("attempts", equalTo(0))
                .body("last_error", nullValue());
    }

    @ParameterizedTest
    @ValueSource(strings = { "delivering", "sent", "cancelled", "expired" })
    void onlyPendingHandedOffOrFailedRemindersCanChange(String state) {
        long id = createdId(reminderAt(parked));
        database.setState(id, state);

        patch(id, Map.of("fire_at", parked.plus(Duration.ofDays(1)).toString()))
                .statusCode(409)
                .contentType("application/problem+json")
                .body("type", equalTo("urn:tickler:problem:reminder-state"))
                .body("title", equalTo("Not possible in the reminder's state"))
                .body("status", equalTo(409))
                .body("detail", equalTo("reminder " + id + " is " + state
                        + "; only pending, handed_off or failed reminders can be changed"));
    }

    @Test
    void movingOntoAnotherRemindersTimeIsAConflict() {
        Map<String, Object> first = reminderAt(parked);
        createdId(first);
        Map<String, Object> second = new java.util.HashMap<>(first);
        second.put("fire_at", parked.plus(Duration.ofHours(1)).toString());
        long id = createdId(second);

        patch(id, Map.of("fire_at", parked.toString()))
                .statusCode(409)
                .body("type", equalTo("urn:tickler:problem:fire-time-taken"))
                .body("detail", equalTo("another reminder of this user and template already fires at that time"));
        api().get("/v1/reminders/" + id).then().body("version", equalTo(0));
    }

    @Test
    void emptyChangeIsRefused() {
        long id = createdId(reminderAt(parked));

        patch(id, Map.of()).statusCode(400)
                .body("errors", equalTo(List.of(Map.of("field", "body",
                        "message", "give at least one of fire_at, local_time, tz, data or expires_after"))));
    }

    @Test
    void invalidChangeIsRefusedWithFieldErrors() {
        long id = createdId(reminderAt(parked));

        patch(id, Map.of("fire_at", parked.toString(), "local_time", day + "T09:00", "state", "sent"))
                .statusCode(400)
                .body("errors", equalTo(List.of(
                        Map.of("field", "fire_at", "message", "give either fire_at or local_time with tz, not both"),
                        Map.of("field", "state", "message", "unknown field"))));
        patch(id, Map.of("fire_at", parked.toString(), "local_time", day + "T09:00"))
                .statusCode(400)
                .body("errors", equalTo(List.of(Map.of("field", "fire_at",
                        "message", "give either fire_at or local_time with tz, not both"))));
    }

    @Test
    void unknownReminderCannotChange() {
        patch(999_999_999L, Map.of("fire_at", parked.toString())).statusCode(404)
                .body("detail", equalTo("reminder 999999999 does not exist"));
    }

    private static ValidatableResponse patch(long id, Map<String, Object> change) {
        return api().body(change).patch("/v1/reminders/" + id).then();
    }
}
