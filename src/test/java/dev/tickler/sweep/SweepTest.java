package dev.tickler.sweep;

import static dev.tickler.testing.Api.api;
import static dev.tickler.testing.Api.createdId;
import static dev.tickler.testing.Api.publishedFor;
import static dev.tickler.testing.Api.reminderAt;
import static dev.tickler.testing.InfraiEmulatorResource.emulator;
import static dev.tickler.testing.NotifierResource.notifier;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import jakarta.inject.Inject;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;

import dev.tickler.emulator.PublishedMessage;
import dev.tickler.testing.Api;
import dev.tickler.testing.Database;
import dev.tickler.testing.MovableClock;

/**
 * The sweep (docs/contract.md#sweep-and-reconcile) on real Postgres with the emulator; days pass by moving the
 * application's clock.
 */
@QuarkusTest
class SweepTest {

    @Inject
    MovableClock clock;

    @Inject
    Database database;

    @AfterEach
    void backToNow() {
        clock.reset();
        emulator().clearFaults();
    }

    @Test
    void parkedReminderIsHandedOffOnceWhenItEntersTheWindow() {
        Instant fireAt = Instant.now().plus(Duration.ofDays(8));
        long id = createdId(reminderAt(fireAt));
        Api.get(id).body("state", equalTo("pending"));

        sweep();
        assertThat(publishedFor(id)).isEmpty();

        clock.moveBy(Duration.ofDays(2).plusHours(1));
        sweep();

        Api.get(id).body("state", equalTo("handed_off"));
        List<PublishedMessage> published = publishedFor(id);
        assertThat(published).singleElement().satisfies(message -> {
            assertThat(message.idempotencyKey()).isEqualTo("reminder:" + id + ":0:0");
            assertThat(message.delaySeconds()).isBetween(Duration.ofDays(6).minusHours(1).toSeconds() - 5,
                    Duration.ofDays(6).minusHours(1).toSeconds() + 1);
        });
        Api.get(id).body("message_id", equalTo(published.get(0).messageId()));

        sweep();
        assertThat(publishedFor(id)).hasSize(1);
    }

    @Test
    void twoSweepsStartedTogetherPublishEveryReminderOnce() throws Exception {
        String user = Api.newUser();
        List<Long> ids = database.insertParked(user, 300, Instant.now().plus(Duration.ofDays(3)));
        long dueInWindow = database.count("SELECT count(*) FROM reminders WHERE state = 'pending'"
                + " AND fire_at <= now() + interval '6 days'");
        emulator().publishLatency(Duration.ofMillis(20));

        CountDownLatch start = new CountDownLatch(1);
        List<CompletableFuture<JsonPath>> reports = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            reports.add(CompletableFuture.supplyAsync(() -> {
                awaitQuietly(start);
                return api().post("/v1/sweep").then().statusCode(200).extract().jsonPath();
            }));
        }
        start.countDown();
        long handedOff = 0;
        for (CompletableFuture<JsonPath> report : reports) {
            handedOff += report.get(60, TimeUnit.SECONDS).getLong("handed_off");
        }

        // had both sweeps published a row, the reports would add up to more than there was to hand off
        assertThat(handedOff).isEqualTo(dueInWindow);
        for (long id : ids) {
            assertThat(publishedFor(id)).as("messages of reminder %d", id).hasSize(1);
        }
        assertThat(database.count("SELECT count(*) FROM reminders WHERE user_id = $1 AND state = 'handed_off'", user))
                .isEqualTo(ids.size());
    }

    @Test
    void failedPublishesAreRetriedByTheNextRunUnderTheSamePublishKey() {
        String user = Api.newUser();
        List<Long> ids = database.insertParked(user, 3, Instant.now().plus(Duration.ofDays(1)));
        emulator().failNextPublishes(1_000, 503, "QUEUE_UNAVAILABLE");

        JsonPath failed = sweep();
        emulator().clearFaults();

        assertThat(failed.getLong("failed_publish")).isGreaterThanOrEqualTo(3);
        for (long id : ids) {
            Api.get(id).body("state", equalTo("pending"));
        }

        sweep();

        for (long id : ids) {
            Api.get(id).body("state", equalTo("handed_off"));
            assertThat(publishedFor(id)).singleElement()
                    .satisfies(message -> assertThat(message.idempotencyKey()).isEqualTo("reminder:" + id + ":0:0"));
        }
    }

    @Test
    void pushThatNeverArrivesIsReconciledAndDeliveredOnce() {
        // the email queue has no push subscription here: its messages never come back
        Map<String, Object> body = reminderAt(Instant.now());
        String user = (String) body.get("user_id");
        long id = createdId(body);
        Api.get(id).body("state", equalTo("handed_off"));

        sweep();
        Api.get(id).body("state", equalTo("handed_off"));

        clock.moveBy(Duration.ofMinutes(11));
        JsonPath report = sweep();

        assertThat(report.getLong("reconciled")).isGreaterThanOrEqualTo(1);
        Api.get(id).body("state", equalTo("sent"));
        sweep();
        assertThat(notifier().receivedFor(user)).singleElement()
                .satisfies(request -> assertThat(request.idempotencyKey()).isEqualTo("reminder:" + id + ":0"));
    }

    @Test
    void claimAbandonedByADeadInstanceIsDeliveredAfterItsLease() {
        Map<String, Object> body = reminderAt(Instant.now().plus(Duration.ofHours(1)));
        String user = (String) body.get("user_id");
        long id = createdId(body);
        Instant leaseEnds = Instant.now().plus(Duration.ofMinutes(5));
        database.execute("update reminders set state = 'delivering', lease_until = $1 where id = $2",
                leaseEnds.atOffset(ZoneOffset.UTC), id);

        sweep();
        Api.get(id).body("state", equalTo("delivering"));
        assertThat(notifier().receivedFor(user)).isEmpty();

        clock.moveBy(Duration.ofMinutes(6));
        sweep();

        Api.get(id).body("state", equalTo("sent"));
        assertThat(notifier().receivedFor(user)).hasSize(1);
    }

    @Test
    void remindersPastTheirExpiryExpire() {
        Map<String, Object> parked = reminderAt(Instant.now().plus(Duration.ofDays(10)));
        parked.put("expires_after", "PT1H");
        long parkedId = createdId(parked);
        Map<String, Object> handedOff = reminderAt(Instant.now().plus(Duration.ofHours(1)));
        handedOff.put("expires_after", "PT1H");
        long handedOffId = createdId(handedOff);

        clock.moveBy(Duration.ofHours(2).plusMinutes(1));
        JsonPath report = sweep();

        assertThat(report.getLong("expired")).isGreaterThanOrEqualTo(1);
        Api.get(handedOffId).body("state", equalTo("expired"));
        assertThat(Api.events(handedOffId)).extracting(event -> event.get("type")).last().isEqualTo("expired");
        Api.get(parkedId).body("state", equalTo("pending"));
        assertThat(notifier().receivedFor((String) handedOff.get("user_id"))).isEmpty();
    }

    @Test
    void reportHasEveryFieldAndNeedsAnApiKey() {
        JsonPath report = sweep();
        assertThat(report.getMap("$")).containsOnlyKeys("handed_off", "failed_publish", "reconciled", "expired",
                "deleted", "schedules_topped_up", "callbacks_deleted", "duration_ms");
        given().post("/v1/sweep").then().statusCode(401);
    }

    @Test
    void windowOfSevenDaysOrMoreIsRefused() {
        assertThatThrownBy(() -> SweepService.requireWindowUnderQueueCeiling(Duration.ofDays(7)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("under 7 days");
        assertThatThrownBy(() -> SweepService.requireWindowUnderQueueCeiling(Duration.ZERO))
                .isInstanceOf(IllegalStateException.class);
        SweepService.requireWindowUnderQueueCeiling(Duration.ofDays(7).minusSeconds(1));
    }

    private static JsonPath sweep() {
        return api().post("/v1/sweep").then().statusCode(200).extract().jsonPath();
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
