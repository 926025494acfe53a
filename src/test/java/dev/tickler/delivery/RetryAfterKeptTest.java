package dev.tickler.delivery;

import static dev.tickler.testing.Api.api;
import static dev.tickler.testing.Api.createdId;
import static dev.tickler.testing.Api.publishedFor;
import static dev.tickler.testing.Api.reminderAt;
import static dev.tickler.testing.InfraiEmulatorResource.emulator;
import static dev.tickler.testing.NotifierResource.notifier;
import static dev.tickler.testing.Push.message;
import static dev.tickler.testing.Push.push;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;

import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.temporal.ChronoUnit;
import java.util.Map;

import jakarta.inject.Inject;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;

import dev.tickler.emulator.PublishedMessage;
import dev.tickler.testing.Api;
import dev.tickler.testing.Database;
import dev.tickler.testing.MovableClock;
import dev.tickler.testing.NotifierStandIn.Reply;

/**
 * The provider's Retry-After is kept, and capped at the sweep window (docs/contract.md#delivery-to-the-notifier): a retry
 * handed back to the queue records its send time on the row, the reconciler waits for that time plus the grace, and a
 * push before it is early. Its email reminders go to a queue the emulator does not push, so only the test pushes.
 */
@QuarkusTest
class RetryAfterKeptTest {

    private static final Duration DEADLINE = Duration.ofSeconds(10);
    private static final Duration WINDOW = Duration.ofDays(6);

    @Inject
    MovableClock clock;

    @Inject
    Database database;

    @AfterEach
    void resetClockAndQueue() {
        clock.reset();
        emulator().clearFaults();
    }

    @Test
    void aOneHourRetryAfterIsKeptNotCutShortByTheReconciler() {
        Map<String, Object> body = reminderAt(Instant.now());
        String user = (String) body.get("user_id");
        notifier().script(user, Reply.rateLimited(3600));
        long id = createdId(body);

        push(message(id, 0)).statusCode(200).body("result", equalTo("claimed"));
        await().atMost(DEADLINE).untilAsserted(() -> Api.get(id).body("state", equalTo("handed_off"))
                .body("attempts", equalTo(1)));
        assertThat(publishedFor(id)).last().extracting(PublishedMessage::delaySeconds)
                .satisfies(delay -> assertThat(delay).isBetween(3595L, 3600L));

        clock.moveBy(Duration.ofMinutes(11));
        reconcile();
        push(message(id, 0)).statusCode(200).body("reason", equalTo("early"));

        Api.get(id).body("state", equalTo("handed_off"));
        assertThat(notifier().receivedFor(user)).hasSize(1);
        assertThat(Api.events(id)).extracting(event -> event.get("type")).doesNotContain("reconciled");

        clock.moveBy(Duration.ofMinutes(60));
        reconcile();

        await().atMost(DEADLINE).untilAsserted(() -> Api.get(id).body("state", equalTo("sent")));
        assertThat(notifier().receivedFor(user)).hasSize(2);
    }

    @Test
    void aRetryAfterOfACenturyWaitsTheSweepWindowAtMost() {
        assertHandedBackForTheWindow("3153600000");
    }

    @Test
    void aRetryAfterBeyondTheLargestInstantWaitsTheSweepWindowAtMost() {
        assertHandedBackForTheWindow(Long.toString(Long.MAX_VALUE));
    }

    @Test
    void aRetryTheQueueCannotTakeWaitsAsHandedOffNotAsACenturyLongClaim() {
        Map<String, Object> body = reminderAt(Instant.now());
        String user = (String) body.get("user_id");
        notifier().script(user, Reply.rateLimited(3153600000L));
        long id = createdId(body);
        emulator().failNextPublishes(1_000, 503, "QUEUE_UNAVAILABLE");

        push(message(id, 0)).statusCode(200).body("result", equalTo("claimed"));

        await().atMost(DEADLINE).untilAsserted(() -> Api.get(id).body("state", equalTo("handed_off")));
        assertThat(database.count("SELECT count(*) FROM reminders WHERE id = $1 AND lease_until IS NULL", id))
                .isEqualTo(1);
        assertThat(nextSendTime(id)).isCloseTo(Instant.now().plus(WINDOW), within(1, ChronoUnit.MINUTES));
        assertThat(Api.events(id)).extracting(event -> event.get("type")).contains("publish_failed");
    }

    private void assertHandedBackForTheWindow(String retryAfter) {
        Map<String, Object> body = reminderAt(Instant.now());
        String user = (String) body.get("user_id");
        notifier().script(user, Reply.rateLimited(retryAfter));
        long id = createdId(body);

        push(message(id, 0)).statusCode(200).body("result", equalTo("claimed"));

        await().atMost(DEADLINE).untilAsserted(() -> Api.get(id).body("state", equalTo("handed_off"))
                .body("attempts", equalTo(1)));
        assertThat(nextSendTime(id)).isCloseTo(Instant.now().plus(WINDOW), within(1, ChronoUnit.MINUTES));
        assertThat(publishedFor(id)).last().extracting(PublishedMessage::delaySeconds)
                .satisfies(delay -> assertThat(delay).isBetween(WINDOW.toSeconds() - 60, WINDOW.toSeconds()));
    }

    private Instant nextSendTime(long id) {
        return OffsetDateTime.parse(database.text("SELECT to_char(deferred_until AT TIME ZONE 'UTC',"
                + " 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"') FROM reminders WHERE id = $1", id)).toInstant();
    }

    private static void reconcile() {
        api().post("/v1/reconcile").then().statusCode(200);
    }
}
