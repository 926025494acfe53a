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

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.quarkus.test.junit.QuarkusTest;

import dev.tickler.emulator.PublishedMessage;
import dev.tickler.testing.Database;
import dev.tickler.testing.FutureDates;

@QuarkusTest
class CancelAndRedriveTest {

    @Inject
    Database database;

    /** 08:00 UTC on a day past the hand-off window (the reminder stays pending) that the calendar will not overtake. */
    private static Instant parked() {
        return FutureDates.at(FutureDates.day(), 8);
    }

    @Test
    void cancellingBumpsTheVersionSoTheQueuedMessageIsStale() {
        long id = createdId(reminderAt(Instant.now().plus(Duration.ofHours(1))));

        api().delete("/v1/reminders/" + id).then()
                .statusCode(200)
                .body("state", equalTo("cancelled"))
                .body("version", equalTo(1));
        assertThat(publishedFor(id)).singleElement()
                .satisfies(message -> assertThat(message.body().getInteger("version")).isZero());
    }

    @Test
    void cancellingAParkedReminderWorksToo() {
        long id = createdId(reminderAt(parked()));

        api().delete("/v1/reminders/" + id).then().statusCode(200).body("state", equalTo("cancelled"));
    }

    @Test
    void cancellingTwiceAnswersTheSameCancelledReminder() {
        long id = createdId(reminderAt(parked()));
        api().delete("/v1/reminders/" + id).then().statusCode(200);

        api().delete("/v1/reminders/" + id).then()
                .statusCode(200)
                .body("state", equalTo("cancelled"))
                .body("version", equalTo(1));
    }

    @ParameterizedTest
    @ValueSource(strings = { "sent", "expired", "skipped" })
    void finishedReminderCannotBeCancelled(String state) {
        long id = createdId(reminderAt(parked()));
        database.setState(id, state);

        api().delete("/v1/reminders/" + id).then()
                .statusCode(409)
                .contentType("application/problem+json")
                .body("type", equalTo("urn:tickler:problem:reminder-state"))
                .body("detail", equalTo("reminder " + id + " is " + state + "; it can no longer be cancelled"));
    }

    @Test
    void reminderBeingDeliveredCannotBeCancelled() {
        long id = createdId(reminderAt(parked()));
        database.setState(id, "delivering");

        api().delete("/v1/reminders/" + id).then()
                .statusCode(409)
                .body("detail", equalTo("reminder " + id + " is delivering; a send is in flight and its outcome decides"));
    }

    @Test
    void cancellingAnUnknownReminderIsNotFound() {
        api().delete("/v1/reminders/999999999").then().statusCode(404)
                .contentType("application/problem+json");
    }

    @Test
    void redriveSendsAFailedReminderRoundAgainUnderTheSameVersionAndTheNextHandOff() {
        long id = createdId(reminderAt(Instant.now().plus(Duration.ofMinutes(10))));
        database.execute("update reminders set state = 'failed', attempts = 5, last_error = 'HTTP 400' where id = $1", id);

        api().post("/v1/reminders/" + id + "/redrive").then()
                .statusCode(200)
                .body("state", equalTo("handed_off"))
                .body("version", equalTo(0))
                .body("attempts", equalTo(0))
                .body("last_error", nullValue());

        assertThat(publishedFor(id)).extracting(PublishedMessage::idempotencyKey)
                .containsExactly("reminder:" + id + ":0:0", "reminder:" + id + ":0:1");
    }

    @ParameterizedTest
    @ValueSource(strings = { "pending", "handed_off", "delivering", "sent", "cancelled", "expired" })
    void onlyFailedRemindersCanBeRedriven(String state) {
        long id = createdId(reminderAt(parked()));
        database.setState(id, state);

        api().post("/v1/reminders/" + id + "/redrive").then()
                .statusCode(409)
                .body("detail", equalTo("reminder " + id + " is " + state + "; only failed reminders can be redriven"));
    }
}
