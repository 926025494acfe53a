package dev.tickler.operator;

import static dev.tickler.testing.Api.api;
import static dev.tickler.testing.Api.newUser;
import static dev.tickler.testing.Api.publishedFor;
import static dev.tickler.testing.InfraiEmulatorResource.emulator;
import static dev.tickler.testing.NotifierResource.notifier;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Stream;

import jakarta.inject.Inject;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import io.restassured.response.ValidatableResponse;

import dev.tickler.emulator.PublishedMessage;
import dev.tickler.testing.Api;
import dev.tickler.testing.Database;
import dev.tickler.testing.InfraiEmulatorResource;
import dev.tickler.testing.NotifierStandIn.Received;

/**
 * POST /v1/admin/redrive (docs/contract.md#operator-api): dead letters go round again as the single redrive sends them,
 * once.
 */
@QuarkusTest
class BulkRedriveTest {

    private static final Duration DEADLINE = Duration.ofSeconds(30);

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
    void redrivenRemindersAreDeliveredOnceEachUnderTheirSendKey() {
        String user = user();
        Instant due = Instant.now().minus(Duration.ofMinutes(1));
        List<Long> failed = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            failed.add(seeded.of(user).channel("push").template("t" + i).state("failed").fireAt(due.plusSeconds(i))
                    .set("version", 2).set("handoff", 1).set("attempts", 5).lastError("HTTP 400").insert());
        }
        long parked = seeded.of(user).channel("push").template("parked").fireAt(due.plus(Duration.ofDays(30)))
                .insert();
        long otherUsers = seeded.of(user()).channel("push").state("failed").fireAt(due).insert();

        redrive(Map.of("user_id", user, "dry_run", false)).statusCode(200)
                .body("matched", equalTo(5)).body("changed", equalTo(5));

        await().atMost(DEADLINE).until(() -> database.count(
                "SELECT count(*) FROM reminders WHERE user_id = $1 AND state = 'sent'", user) == failed.size());
        assertThat(notifier().receivedFor(user)).extracting(Received::idempotencyKey)
                .containsExactlyInAnyOrderElementsOf(failed.stream().map(id -> "reminder:" + id + ":2").toList());
        for (long id : failed) {
            assertThat(publishedFor(id, InfraiEmulatorResource.PUSHED_QUEUE)).extracting(PublishedMessage::idempotencyKey)
                    .containsExactly("reminder:" + id + ":2:2");
            Api.get(id).body("version", equalTo(2)).body("attempts", equalTo(1))
                    .body("last_error", nullValue());
            assertThat(Api.events(id)).extracting(event -> event.get("type"))
                    .containsSubsequence("redriven", "published", "received", "attempt", "sent");
            assertThat(Api.events(id).get(0)).containsEntry("type", "redriven").containsEntry("by", "key-1");
        }
        assertThat(database.text("SELECT state || ':' || handoff FROM reminders WHERE id = $1", parked))
                .isEqualTo("pending:0");
        assertThat(database.text("SELECT state || ':' || handoff FROM reminders WHERE id = $1", otherUsers))
                .isEqualTo("failed:0");
    }

    @Test
    void filtersNarrowTheRedrive() {
        String user = user();
        Instant later = Instant.now().plus(Duration.ofDays(1));
        long quota = seeded.of(user).template("a").state("failed").fireAt(later).lastError("HTTP 429: Quota exceeded")
                .insert();
        long refused = seeded.of(user).template("b").state("failed").fireAt(later).lastError("HTTP 400").insert();

        redrive(Map.of("user_id", user, "error_contains", "QUOTA", "dry_run", false)).statusCode(200)
                .body("matched", equalTo(1)).body("changed", equalTo(1));

        Api.get(quota).body("state", equalTo("handed_off"));
        Api.get(refused).body("state", equalTo("failed"));
    }

    @Test
    void dryRunCountsAndChangesNothing() {
        String user = user();
        List<Long> ids = seeded.many(user, "email", "failed", 3, Instant.now().minus(Duration.ofMinutes(5)));

        redrive(Map.of("user_id", user, "dry_run", true)).statusCode(200)
                .body("matched", equalTo(3)).body("changed", equalTo(0));

        assertUnchanged(user, ids);
    }

    @Test
    void repeatingARedriveChangesNothing() {
        String user = user();
        List<Long> ids = seeded.many(user, "email", "failed", 3, Instant.now().plus(Duration.ofDays(1)));
        redrive(Map.of("user_id", user, "dry_run", false)).statusCode(200).body("changed", equalTo(3));

        redrive(Map.of("user_id", user, "dry_run", false)).statusCode(200)
                .body("matched", equalTo(0)).body("changed", equalTo(0));

        for (long id : ids) {
            assertThat(publishedFor(id)).extracting(PublishedMessage::idempotencyKey)
                    .containsExactly("reminder:" + id + ":0:1");
        }
    }

    @Test
    void identicalRedrivesAtOnceChangeEachReminderOnceBetweenThem() throws Exception {
        String user = user();
        // more than two batches, so every call walks its keyset beside the others
        int count = OperatorReminderService.BATCH_SIZE * 2 + 200;
        Set<Long> ids = new HashSet<>(seeded.many(user, "email", "failed", count, Instant.now().plus(Duration.ofDays(1))));

        long changed = 0;
        for (JsonPath outcome : atOnce(3, Map.of("user_id", user, "dry_run", false))) {
            assertThat(outcome.getLong("matched")).isBetween(0L, (long) count);
            changed += outcome.getLong("changed");
        }

        assertThat(changed).isEqualTo(count);
        assertThat(database.count("SELECT count(*) FROM reminders WHERE user_id = $1 AND state = 'handed_off'"
                + " AND handoff = 1", user)).isEqualTo(count);
        List<String> keys = emulator().published(Api.DEFAULT_QUEUE).stream()
                .map(PublishedMessage::idempotencyKey)
                .filter(key -> key != null && ids.contains(Long.parseLong(key.split(":")[1])))
                .toList();
        assertThat(keys).hasSize(count).doesNotHaveDuplicates().allMatch(key -> key.endsWith(":0:1"));
    }

    @Test
    void emptyFilterCountsEveryFailedReminder() {
        seeded.many(user(), "email", "failed", 2, Instant.now().plus(Duration.ofDays(1)));

        await().atMost(DEADLINE).untilAsserted(() -> assertThat(redrive(Map.of("dry_run", true)).statusCode(200)
                .extract().jsonPath().getLong("matched"))
                .isEqualTo(database.count("SELECT count(*) FROM reminders WHERE state = 'failed'")));
    }

    @Test
    void onlyFailedRemindersCanBeRedriven() {
        String user = user();
        List<Long> ids = seeded.many(user, "email", "failed", 2, Instant.now().plus(Duration.ofDays(1)));

        expectErrors(redrive(Map.of("user_id", user, "state", "pending", "dry_run", false)),
                List.of(Map.of("field", "state", "message", "redrive applies to failed reminders only")));

        assertUnchanged(user, ids);
    }

    static Stream<Arguments> refusedBodies() {
        return Stream.of(
                refused("unknown field", user -> "{\"user_id\": \"" + user + "\", \"dry_run\": false, \"limit\": 5}",
                        Map.of("field", "limit", "message", "unknown field")),
                refused("dry_run missing", user -> "{\"user_id\": \"" + user + "\"}",
                        Map.of("field", "dry_run", "message", "is required: true to count only, false to change")),
                refused("dry_run as text", user -> "{\"user_id\": \"" + user + "\", \"dry_run\": \"false\"}",
                        Map.of("field", "dry_run", "message", "must be true or false")),
                refused("user_id as a number", user -> "{\"user_id\": 7, \"dry_run\": false}",
                        Map.of("field", "user_id", "message", "must be a string")),
                refused("two bad fields", user -> "{\"user_id\": \"" + user + "\", \"state\": \"lost\","
                        + " \"fire_from\": \"soon\", \"dry_run\": false}",
                        Map.of("field", "state", "message", "must be one of pending, handed_off, delivering, sent,"
                                + " failed, cancelled, expired, skipped"),
                        Map.of("field", "fire_from", "message",
                                "must be an ISO-8601 instant with an offset, e.g. 2026-12-01T08:00:00Z")),
                refused("error_contains with NUL", user -> "{\"user_id\": \"" + user + "\", \"error_contains\":"
                        + " \"a\\u0000\", \"dry_run\": false}",
                        Map.of("field", "error_contains", "message",
                                "must not contain the NUL character or unpaired UTF-16 surrogates")),
                refused("null body", user -> "null",
                        Map.of("field", "body", "message", "a JSON object is required")),
                refused("array body", user -> "[]",
                        Map.of("field", "body", "message", "must be a JSON object")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("refusedBodies")
    void refusedBodyNamesEachFieldAndChangesNothing(String name, Function<String, String> body,
            List<Map<String, String>> errors) {
        String user = user();
        List<Long> ids = seeded.many(user, "email", "failed", 2, Instant.now().plus(Duration.ofDays(1)));

        expectErrors(api().body(body.apply(user)).post("/v1/admin/redrive").then(), errors);

        assertUnchanged(user, ids);
    }

    @SafeVarargs
    private static Arguments refused(String name, Function<String, String> body, Map<String, String>... errors) {
        return Arguments.of(name, body, List.of(errors));
    }

    private void assertUnchanged(String user, List<Long> ids) {
        assertThat(database.count("SELECT count(*) FROM reminders WHERE user_id = $1 AND state = 'failed'"
                + " AND handoff = 0", user)).isEqualTo(ids.size());
        for (long id : ids) {
            assertThat(publishedFor(id)).isEmpty();
        }
    }

    private List<JsonPath> atOnce(int calls, Map<String, Object> body) throws Exception {
        CountDownLatch start = new CountDownLatch(1);
        List<CompletableFuture<JsonPath>> outcomes = new ArrayList<>();
        for (int i = 0; i < calls; i++) {
            outcomes.add(CompletableFuture.supplyAsync(() -> {
                try {
                    start.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return redrive(body).statusCode(200).extract().jsonPath();
            }));
        }
        start.countDown();
        List<JsonPath> answers = new ArrayList<>();
        for (CompletableFuture<JsonPath> outcome : outcomes) {
            answers.add(outcome.get(60, TimeUnit.SECONDS));
        }
        return answers;
    }

    private String user() {
        String user = newUser();
        users.add(user);
        return user;
    }

    private static ValidatableResponse redrive(Map<String, Object> body) {
        return api().body(body).post("/v1/admin/redrive").then();
    }

    private static void expectErrors(ValidatableResponse response, List<Map<String, String>> errors) {
        response.statusCode(400)
                .contentType("application/problem+json")
                .body("type", equalTo("urn:tickler:problem:validation"))
                .body("errors", equalTo(errors));
    }
}
