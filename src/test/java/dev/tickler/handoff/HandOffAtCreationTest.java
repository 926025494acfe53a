package dev.tickler.handoff;

import static dev.tickler.testing.Api.createdId;
import static dev.tickler.testing.Api.publishedFor;
import static dev.tickler.testing.Api.reminderAt;
import static dev.tickler.testing.InfraiEmulatorResource.emulator;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.nullValue;

import java.time.Duration;
import java.time.Instant;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;

import dev.tickler.testing.Api;
import dev.tickler.testing.Metrics;

@QuarkusTest
class HandOffAtCreationTest {

    private static final long WEEK_SECONDS = 604_800;

    @AfterEach
    void noLatency() {
        emulator().publishLatency(Duration.ZERO);
    }

    @Test
    void reminderJustInsideTheWeekIsPublished() {
        long id = createdId(reminderAt(Instant.now().plusSeconds(WEEK_SECONDS - 10)));

        Api.get(id).statusCode(200).body("state", equalTo("handed_off")).body("message_id", notNullValue());
        assertThat(publishedFor(id)).singleElement().satisfies(message ->
                assertThat(message.delaySeconds()).isBetween(WEEK_SECONDS - 12, WEEK_SECONDS));
    }

    @Test
    void reminderJustBeyondTheWeekIsParked() {
        long id = createdId(reminderAt(Instant.now().plusSeconds(WEEK_SECONDS + 10)));

        Api.get(id).statusCode(200).body("state", equalTo("pending")).body("message_id", nullValue());
        assertThat(publishedFor(id)).isEmpty();
    }

    @Test
    void failedPublishStillCreatesTheReminderPendingAndCountsTheFailure() {
        double failuresBefore = Metrics.value("tickler_handoff_publish_failures_total");
        emulator().failNextPublishes(1, 500, "INTERNAL");

        long id = createdId(reminderAt(Instant.now().plus(Duration.ofMinutes(30))));

        Api.get(id).statusCode(200).body("state", equalTo("pending")).body("message_id", nullValue());
        assertThat(publishedFor(id)).isEmpty();
        assertThat(Metrics.value("tickler_handoff_publish_failures_total")).isEqualTo(failuresBefore + 1);
    }

    @Test
    void shortRateLimitIsWaitedOutAndThePublishGoesThrough() {
        emulator().rateLimitNextPublishes(1, 1);

        long id = createdId(reminderAt(Instant.now().plus(Duration.ofMinutes(30))));

        Api.get(id).statusCode(200).body("state", equalTo("handed_off"));
        assertThat(publishedFor(id)).hasSize(1);
    }

    @Test
    void rateLimitLongerThanTheBoundLeavesTheReminderForTheSweep() {
        emulator().rateLimitNextPublishes(1, 30);

        long started = System.nanoTime();
        long id = createdId(reminderAt(Instant.now().plus(Duration.ofMinutes(30))));

        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(10));
        Api.get(id).statusCode(200).body("state", equalTo("pending"));
        assertThat(publishedFor(id)).isEmpty();
    }
}
