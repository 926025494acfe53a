package dev.tickler.reminder;

import static dev.tickler.testing.Api.api;
import static dev.tickler.testing.Api.createdId;
import static dev.tickler.testing.Api.newUser;
import static dev.tickler.testing.Api.pushReminderAt;
import static dev.tickler.testing.NotifierResource.notifier;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import jakarta.inject.Inject;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import io.restassured.response.ValidatableResponse;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Transaction;
import io.vertx.mutiny.sqlclient.Tuple;

import dev.tickler.operator.SeededReminders;
import dev.tickler.testing.Api;
import dev.tickler.testing.Database;
import dev.tickler.testing.FutureDates;
import dev.tickler.testing.NotifierStandIn.Received;
import dev.tickler.testing.NotifierStandIn.Reply;

/**
 * POST /v1/reminders/cancel (docs/contract.md#keyed-reminders-and-cancel-by-filter) over HTTP: a user's live reminders
 * that match are cancelled with their events, delivering ones counted; at most 10,000 a call; refusals write nothing; a
 * cancel racing a push ends each reminder sent or cancelled, never both.
 */
@QuarkusTest
class CancelByFilterTest {

    private static final Instant LATER = FutureDates.at(FutureDates.day(), 0);

    @Inject
    SeededReminders seeded;

    @Inject
    Database database;

    @Inject
    Pool pool;

    private final List<String> users = new ArrayList<>();

    @AfterEach
    void removeSeededReminders() {
        seeded.deleteAllOf(users);
        users.clear();
    }

    @Test
    void everyFilterGivenMustHoldAndOnlyLiveRemindersOfTheUserAreCancelled() {
        String user = user();
        // keys are the tenant's, so this test's own start
        String own = ownKeyStart();
        Map<String, Long> ids = new LinkedHashMap<>();
        ids.put("trial_1 pending", keyed(user, "trial_ending", own + "trial_1", "pending", "plan"));
        ids.put("trial_2 handed_off", keyed(user, "trial_ending", own + "trial_2", "handed_off", "plan"));
        ids.put("trial_3 failed", keyed(user, "trial_ending", own + "trial_3", "failed", "plan"));
        ids.put("trial_4 delivering", keyed(user, "trial_ending", own + "trial_4", "delivering", "plan"));
        ids.put("trial_5 sent", keyed(user, "trial_ending", own + "trial_5", "sent", "plan"));
        ids.put("trialX1: '_' is no wildcard", keyed(user, "trial_ending", own + "trialX1", "pending", "plan"));
        ids.put("trial_6 other tag", keyed(user, "trial_ending", own + "trial_6", "pending", "other"));
        ids.put("trial_7 other template", keyed(user, "trial_started", own + "trial_7", "pending", "plan"));
        ids.put("no key", seeded.of(user).template("trial_ending").fireAt(LATER).set("tags", new String[] { "plan" })
                .insert());
        String neighbour = user();
        long neighbours = keyed(neighbour, "trial_ending", own + "trial_8", "pending", "plan");

        cancel(Map.of("user_id", user, "template", "trial_ending", "tag", "plan", "key_prefix", own + "trial_"))
                .statusCode(200).body("cancelled", equalTo(3)).body("delivering", equalTo(1))
                .body("more", equalTo(false));

        Map<String, String> states = new LinkedHashMap<>();
        ids.forEach((what, id) -> states.put(what, stateAndVersion(id)));
        assertThat(states).containsExactly(
                Map.entry("trial_1 pending", "cancelled:1"),
                Map.entry("trial_2 handed_off", "cancelled:1"),
                Map.entry("trial_3 failed", "cancelled:1"),
                Map.entry("trial_4 delivering", "delivering:0"),
                Map.entry("trial_5 sent", "sent:0"),
                Map.entry("trialX1: '_' is no wildcard", "pending:0"),
                Map.entry("trial_6 other tag", "pending:0"),
                Map.entry("trial_7 other template", "pending:0"),
                Map.entry("no key", "pending:0"));
        assertThat(stateAndVersion(neighbours)).isEqualTo("pending:0");
        assertThat(database.count("SELECT count(*) FROM reminder_events WHERE reminder_id = ANY($1)"
                + " AND type = 'cancelled' AND detail->>'by' = 'key-1'", (Object) new Long[] { ids.get("trial_1 pending"),
                        ids.get("trial_2 handed_off"), ids.get("trial_3 failed") })).isEqualTo(3);
        assertThat(database.count("SELECT count(*) FROM reminder_events e JOIN reminders r ON r.id = e.reminder_id"
                + " WHERE r.user_id = ANY($1)", (Object) users.toArray(String[]::new))).isEqualTo(3);
    }

    @Test
    void theUserAloneCancelsEveryLiveReminderOfTheUser() {
        String user = user();
        long unkeyed = seeded.of(user).template("a").fireAt(LATER).insert();
        long keyed = keyed(user, "b", ownKeyStart() + "cart:1", "handed_off", "x");

        cancel(Map.of("user_id", user)).statusCode(200).body("cancelled", equalTo(2)).body("delivering", equalTo(0));

        assertThat(List.of(stateAndVersion(unkeyed), stateAndVersion(keyed))).containsOnly("cancelled:1");
        cancel(Map.of("user_id", user)).statusCode(200).body("cancelled", equalTo(0));
    }

    @Test
    void aCallCancelsAtMostTenThousandAndSaysMoreAreLeft() {
        String user = user();
        String own = ownKeyStart();
        int count = ReminderService.MAX_CANCELLED_PER_CALL + 50;
        pool.preparedQuery("INSERT INTO reminders (user_id, channel, template, fire_at, key, tags)"
                        + " SELECT $1, 'email', 'trial_ending', $2::timestamptz + g * interval '1 second', $4 || g,"
                        + " '{campaign}' FROM generate_series(1, $3::int) g")
                .execute(Tuple.of(user, LATER.atOffset(ZoneOffset.UTC), count, own + "bulk:")).await().indefinitely();
        Map<String, Object> filter = Map.of("user_id", user, "tag", "campaign", "key_prefix", own + "bulk:");

        cancel(filter).statusCode(200).body("cancelled", equalTo(ReminderService.MAX_CANCELLED_PER_CALL))
                .body("more", equalTo(true));
        cancel(filter).statusCode(200).body("cancelled", equalTo(50)).body("more", equalTo(false));
        cancel(filter).statusCode(200).body("cancelled", equalTo(0)).body("more", equalTo(false));

        assertThat(database.count("SELECT count(*) FROM reminders WHERE user_id = $1 AND state = 'cancelled'"
                + " AND version = 1", user)).isEqualTo(count);
        assertThat(database.count("SELECT count(*) FROM reminder_events e JOIN reminders r ON r.id = e.reminder_id"
                + " WHERE r.user_id = $1 AND e.type = 'cancelled'", user)).isEqualTo(count);
    }

    /**
     * A push claims a reminder while the cancel waits for that row's lock: once the claim commits, the cancel sees the
     * row delivering and leaves it to its send, and its batch still fills up with the other matches, so the call
     * cancels every one of them.
     */
    @Test
    void aReminderClaimedWhileTheCancelWaitsIsLeftToItsSendAndTheOthersAreCancelled() throws Exception {
        String user = user();
        int count = ReminderService.CANCEL_BATCH + 200;
        pool.preparedQuery("INSERT INTO reminders (user_id, channel, template, fire_at)"
                        + " SELECT $1, 'email', 'trial_ending', $2::timestamptz + g * interval '1 second'"
                        + " FROM generate_series(1, $3::int) g")
                .execute(Tuple.of(user, LATER.atOffset(ZoneOffset.UTC), count)).await().indefinitely();
        long first = database.count("SELECT min(id) FROM reminders WHERE user_id = $1", user);
        SqlConnection claimant = pool.getConnection().await().indefinitely();
        try {
            Transaction claim = claimant.begin().await().indefinitely();
            claimant.preparedQuery("UPDATE reminders SET state = 'delivering', lease_until = now() + interval '1 hour'"
                    + " WHERE id = $1").execute(Tuple.of(first)).await().indefinitely();

            CompletableFuture<JsonPath> call = CompletableFuture.supplyAsync(() -> cancel(Map.of("user_id", user))
                    .statusCode(200).extract().jsonPath());
            await().atMost(Duration.ofSeconds(30)).until(() -> database.count("SELECT count(*) FROM pg_stat_activity"
                    + " WHERE wait_event_type = 'Lock' AND query LIKE '%UPDATE reminders SET state = ''cancelled''%'")
                    == 1);
            claim.commit().await().indefinitely();

            assertThat(call.get(60, TimeUnit.SECONDS).getMap("$")).containsExactlyInAnyOrderEntriesOf(Map.of("cancelled", count - 1,
                    "delivering", 1, "more", false));
        } finally {
            claimant.close().await().indefinitely();
        }
        assertThat(database.count("SELECT count(*) FROM reminders WHERE user_id = $1 AND state = 'cancelled'", user))
                .isEqualTo(count - 1);
        assertThat(stateAndVersion(first)).isEqualTo("delivering:0");
    }

    @Test
    void aCancelledOccurrenceMakesRoomForItsSchedulesNext() {
        String user = user();
        Map<String, Object> schedule = new HashMap<>();
        schedule.put("user_id", user);
        schedule.put("channel", "email");
        schedule.put("template", "water_plants");
        schedule.put("tz", "UTC");
        schedule.put("start", FutureDates.day() + "T09:00");
        schedule.put("rrule", "FREQ=DAILY");
        long scheduleId = api().body(schedule).post("/v1/schedules").then().statusCode(201).extract().jsonPath()
                .getLong("id");
        try {
            cancel(Map.of("user_id", user, "template", "water_plants")).statusCode(200)
                    .body("cancelled", equalTo(2));

            assertThat(database.text("SELECT string_agg(occurrence || ':' || state, ',' ORDER BY occurrence)"
                    + " FROM reminders WHERE schedule_id = $1", scheduleId))
                    .isEqualTo("1:cancelled,2:cancelled,3:pending,4:pending");
        } finally {
            api().delete("/v1/schedules/" + scheduleId).then().statusCode(200);
        }
    }

    @Test
    void refusedFiltersNameEachFieldAndChangeNothing() {
        String user = user();
        long pending = seeded.of(user).template("a").fireAt(LATER).insert();

        expectFields(cancel(Map.of("template", "a")), "user_id");
        expectFields(cancel(Map.of("user_id", "")), "user_id");
        expectFields(cancel(Map.of("user_id", user, "template", "", "tag", "", "key_prefix", "")),
                "key_prefix", "tag", "template");
        expectFields(cancel(Map.of("user_id", user, "tag", "two words", "key_prefix", "a/b", "template", "a b")),
                "key_prefix", "tag", "template");
        expectFields(cancel(Map.of("user_id", user, "state", "pending")), "state");
        expectFields(cancel(Map.of("user_id", user, "tag", List.of("a"))), "tag");
        api().body("[]").post("/v1/reminders/cancel").then().statusCode(400)
                .contentType("application/problem+json");
        api().post("/v1/reminders/cancel").then().statusCode(400).contentType("application/problem+json");

        assertThat(stateAndVersion(pending)).isEqualTo("pending:0");
    }

    /**
     * Cancels keep arriving while the reminders are claimed and sent (the provider takes half a second, so claims are
     * held while cancels come): each reminder ends sent once or cancelled, never both, and what the calls say they
     * cancelled is what is cancelled.
     */
    @Test
    void aCancelRacingThePushEndsEachReminderSentOrCancelledNeverBoth() throws Exception {
        String user = user();
        int count = 30;
        Instant fireAt = Instant.now().plusSeconds(3).truncatedTo(ChronoUnit.SECONDS);
        Reply[] slow = new Reply[count];
        java.util.Arrays.fill(slow, Reply.okAfter(Duration.ofMillis(500)));
        notifier().script(user, slow);
        List<Long> ids = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            Map<String, Object> body = pushReminderAt(fireAt);
            body.put("user_id", user);
            body.put("template", "race_" + i);
            body.put("fire_at", fireAt.plusMillis(50L * i).toString());
            ids.add(createdId(body));
        }

        await().atMost(Duration.ofSeconds(10)).until(() -> Instant.now().isAfter(fireAt.plusMillis(300)));
        List<CompletableFuture<JsonPath>> calls = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            calls.add(CompletableFuture.supplyAsync(() -> cancel(Map.of("user_id", user)).statusCode(200)
                    .extract().jsonPath(), CompletableFuture.delayedExecutor(100L * i, TimeUnit.MILLISECONDS)));
        }
        long saidCancelled = 0;
        for (CompletableFuture<JsonPath> call : calls) {
            saidCancelled += call.get(60, TimeUnit.SECONDS).getLong("cancelled");
        }

        await().atMost(Duration.ofSeconds(60)).until(() -> database.count("SELECT count(*) FROM reminders"
                + " WHERE id = ANY($1) AND state IN ('sent', 'cancelled')", (Object) ids.toArray(Long[]::new)) == count);
        Map<Long, Long> sends = notifier().receivedFor(user).stream()
                .collect(Collectors.groupingBy(received -> received.body().getLong("reminder_id"),
                        Collectors.counting()));
        Set<Long> cancelled = new java.util.HashSet<>();
        for (long id : ids) {
            String state = stateAndVersion(id).split(":")[0];
            List<String> types = Api.events(id).stream().map(event -> (String) event.get("type")).toList();
            if (state.equals("cancelled")) {
                cancelled.add(id);
                assertThat(sends).as("cancelled %d", id).doesNotContainKey(id);
                assertThat(types).as("cancelled %d", id).doesNotContain("sent");
            } else {
                assertThat(sends.get(id)).as("sent %d", id).isEqualTo(1L);
                assertThat(types).as("sent %d", id).doesNotContain("cancelled");
            }
        }
        assertThat(cancelled).hasSize((int) saidCancelled);
        List<Received> all = notifier().receivedFor(user);
        assertThat(all).hasSize(count - cancelled.size());
    }

    private String user() {
        String user = newUser();
        users.add(user);
        return user;
    }

    /** Letters only, so that it holds no character a LIKE pattern would take for a wildcard. */
    private static String ownKeyStart() {
        return java.util.UUID.randomUUID().toString().replaceAll("[^a-f]", "") + ".";
    }

    private long keyed(String user, String template, String key, String state, String tag) {
        return seeded.of(user).template(template).state(state).fireAt(LATER).set("key", key)
                .set("tags", new String[] { tag }).insert();
    }

    private String stateAndVersion(long id) {
        return database.text("SELECT state || ':' || version FROM reminders WHERE id = $1", id);
    }

    private static ValidatableResponse cancel(Map<String, Object> body) {
        return api().body(body).post("/v1/reminders/cancel").then();
    }

    private static void expectFields(ValidatableResponse response, String... fields) {
        List<String> named = response.statusCode(400).contentType("application/problem+json").extract().jsonPath()
                .getList("errors.field");
        assertThat(named).containsExactlyInAnyOrder(fields);
    }
}
