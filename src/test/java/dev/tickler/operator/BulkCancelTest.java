package dev.tickler.operator;

import static dev.tickler.testing.Api.api;
import static dev.tickler.testing.Api.createdId;
import static dev.tickler.testing.Api.newUser;
import static dev.tickler.testing.Api.pushReminderAt;
import static dev.tickler.testing.InfraiEmulatorResource.emulator;
import static dev.tickler.testing.NotifierResource.notifier;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import jakarta.inject.Inject;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import io.restassured.response.ValidatableResponse;

import dev.tickler.testing.Api;
import dev.tickler.testing.Database;
import dev.tickler.testing.FutureDates;
import dev.tickler.testing.InfraiEmulatorResource;

/**
 * POST /v1/admin/cancel (docs/contract.md#operator-api): what DELETE would cancel, cancelled in bulk with a new
 * version, once.
 */
@QuarkusTest
class BulkCancelTest {

    private static final Duration DEADLINE = Duration.ofSeconds(30);
    /** Beyond the hand-off window, on a day the calendar will not overtake. */
    private static final Instant LATER = FutureDates.at(FutureDates.day(), 0);

    @Inject
    SeededReminders seeded;

    @Inject
    Database database;

    private final List<String> users = new ArrayList<>();

    @AfterEach
    void removeSeededReminders() {
        seeded.deleteAllOf(users);
        users.clear();
    }

    @Test
    void pendingHandedOffAndFailedRemindersAreCancelledWithANewVersion() {
        String user = user();
        Map<String, Long> byState = new LinkedHashMap<>();
        for (String state : List.of("pending", "handed_off", "failed", "delivering", "sent", "expired", "skipped",
                "cancelled")) {
            byState.put(state, seeded.of(user).template(state).state(state).fireAt(LATER).set("version", 3).insert());
        }

        cancel(Map.of("user_id", user, "dry_run", false)).statusCode(200)
                .body("matched", equalTo(3)).body("changed", equalTo(3));

        byState.forEach((state, id) -> assertThat(stateAndVersion(id)).as(state).isEqualTo(
                List.of("pending", "handed_off", "failed").contains(state) ? "cancelled:4" : state + ":3"));
    }

    @Test
    void cancelledReminderWaitingOnTheQueueIsAcknowledgedAndNeverSent() {
        long ackedBefore = emulator().stats(InfraiEmulatorResource.PUSHED_QUEUE).ackedCount();
        Instant fireAt = Instant.now().plusSeconds(4).truncatedTo(ChronoUnit.SECONDS);
        Map<String, Object> body = pushReminderAt(fireAt);
        String user = (String) body.get("user_id");
        users.add(user);
        long id = createdId(body);

        cancel(Map.of("user_id", user, "dry_run", false)).statusCode(200).body("changed", equalTo(1));

        // its message came back and was acknowledged as stale
        await().atMost(DEADLINE).until(() -> Instant.now().isAfter(fireAt.plusSeconds(1))
                && emulator().stats(InfraiEmulatorResource.PUSHED_QUEUE).ackedCount() > ackedBefore);
        assertThat(notifier().receivedFor(user)).isEmpty();
        Api.get(id).body("state", equalTo("cancelled")).body("version", equalTo(1));
    }

    @Test
    void stateNarrowsTheCancel() {
        String user = user();
        long failed = seeded.of(user).template("a").state("failed").fireAt(LATER).insert();
        long pending = seeded.of(user).template("b").fireAt(LATER).insert();

        cancel(Map.of("user_id", user, "state", "failed", "dry_run", false)).statusCode(200)
                .body("matched", equalTo(1)).body("changed", equalTo(1));

        assertThat(stateAndVersion(failed)).isEqualTo("cancelled:1");
        assertThat(stateAndVersion(pending)).isEqualTo("pending:0");
    }

    @Test
    void dryRunCountsAndChangesNothing() {
        String user = user();
        seeded.many(user, "email", "pending", 4, LATER);

        cancel(Map.of("user_id", user, "dry_run", true)).statusCode(200)
                .body("matched", equalTo(4)).body("changed", equalTo(0));

        assertThat(pendingAtVersionZero(user)).isEqualTo(4);
    }

    @Test
    void repeatingACancelChangesNothing() {
        String user = user();
        seeded.many(user, "email", "pending", 4, LATER);
        cancel(Map.of("user_id", user, "dry_run", false)).statusCode(200).body("changed", equalTo(4));

        cancel(Map.of("user_id", user, "dry_run", false)).statusCode(200)
                .body("matched", equalTo(0)).body("changed", equalTo(0));

        assertThat(database.count("SELECT count(*) FROM reminders WHERE user_id = $1 AND state = 'cancelled'"
                + " AND version = 1", user)).isEqualTo(4);
    }

    @Test
    void filterThatMatchesNothingChangesNothing() {
        String user = user();
        seeded.many(user, "email", "pending", 2, LATER);

        cancel(Map.of("user_id", user, "channel", "sms", "dry_run", false)).statusCode(200)
                .body("matched", equalTo(0)).body("changed", equalTo(0));

        assertThat(pendingAtVersionZero(user)).isEqualTo(2);
    }

    @Test
    void identicalCancelsAtOnceChangeEachReminderOnceBetweenThem() throws Exception {
        String user = user();
        int count = OperatorReminderService.BATCH_SIZE * 2 + 100;
        seeded.many(user, "email", "pending", count, LATER);

        CountDownLatch start = new CountDownLatch(1);
        List<CompletableFuture<JsonPath>> calls = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            calls.add(CompletableFuture.supplyAsync(() -> {
                try {
                    start.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return cancel(Map.of("user_id", user, "dry_run", false)).statusCode(200).extract().jsonPath();
            }));
        }
        start.countDown();
        long changed = 0;
        for (CompletableFuture<JsonPath> call : calls) {
            changed += call.get(60, TimeUnit.SECONDS).getLong("changed");
        }

        assertThat(changed).isEqualTo(count);
        assertThat(database.count("SELECT count(*) FROM reminders WHERE user_id = $1 AND state = 'cancelled'"
                + " AND version = 1", user)).isEqualTo(count);
    }

    @ParameterizedTest
    @ValueSource(booleans = { true, false })
    void emptyFilterIsRefused(boolean dryRun) {
        String user = user();
        seeded.many(user, "email", "pending", 2, LATER);

        expectErrors(cancel(Map.of("dry_run", dryRun)), List.of(Map.of("field", "body", "message",
                "give at least one of state, channel, template, user_id, error_contains, fire_from or fire_to;"
                        + " a cancel of every reminder at once is refused")));

        assertThat(pendingAtVersionZero(user)).isEqualTo(2);
    }

    @ParameterizedTest
    @ValueSource(strings = { "delivering", "sent", "expired", "skipped", "cancelled" })
    void stateThatCannotBeCancelledIsRefused(String state) {
        String user = user();
        seeded.of(user).state(state).fireAt(LATER).insert();

        expectErrors(cancel(Map.of("user_id", user, "state", state, "dry_run", false)), List.of(Map.of("field",
                "state", "message", "cancel applies to pending, handed_off or failed reminders only")));

        assertThat(database.text("SELECT state FROM reminders WHERE user_id = $1", user)).isEqualTo(state);
    }

    @Test
    void unknownFieldIsRefusedAndNothingChanges() {
        String user = user();
        seeded.many(user, "email", "pending", 2, LATER);

        expectErrors(api().body("{\"user_id\": \"" + user + "\", \"dry_run\": false, \"after\": \"x\"}")
                .post("/v1/admin/cancel").then(), List.of(Map.of("field", "after", "message", "unknown field")));

        assertThat(pendingAtVersionZero(user)).isEqualTo(2);
    }

    private long pendingAtVersionZero(String user) {
        return database.count("SELECT count(*) FROM reminders WHERE user_id = $1 AND state = 'pending'"
                + " AND version = 0", user);
    }

    private String stateAndVersion(long id) {
        return database.text("SELECT state || ':' || version FROM reminders WHERE id = $1", id);
    }

    private String user() {
        String user = newUser();
        users.add(user);
        return user;
    }

    private static ValidatableResponse cancel(Map<String, Object> body) {
        return api().body(body).post("/v1/admin/cancel").then();
    }

    private static void expectErrors(ValidatableResponse response, List<Map<String, String>> errors) {
        response.statusCode(400)
                .contentType("application/problem+json")
                .body("type", equalTo("urn:tickler:problem:validation"))
                .body("errors", equalTo(errors));
    }
}
