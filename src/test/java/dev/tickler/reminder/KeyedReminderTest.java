package dev.tickler.reminder;

import static dev.tickler.testing.Api.api;
import static dev.tickler.testing.Api.events;
import static dev.tickler.testing.Api.newKey;
import static dev.tickler.testing.Api.publishedFor;
import static dev.tickler.testing.Api.put;
import static dev.tickler.testing.Api.reminderAt;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.endsWith;
import static org.hamcrest.Matchers.equalTo;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import io.restassured.response.ExtractableResponse;
import io.restassured.response.Response;

import dev.tickler.testing.Api;
import dev.tickler.testing.Database;

/**
 * Keyed reminders (docs/contract.md#keyed-reminders-and-cancel-by-filter) over HTTP: PUT by key creates, keeps or
 * replaces; GET and DELETE by key; a key in POST and in a batch; tags; every refusal; racing PUTs of one key.
 */
@QuarkusTest
class KeyedReminderTest {

    @Inject
    Database database;

    @Test
    void putCreatesThenKeepsAnIdenticalBodyThenReplacesADifferentOne() {
        String key = newKey();
        Map<String, Object> body = reminderAt(inAnHour());
        body.put("tags", List.of("cart", "vip"));
        body.put("data", Map.of("items", 2, "currency", "EUR"));

        ExtractableResponse<Response> created = put(key, body).statusCode(201)
                .body("key", equalTo(key)).body("tags", contains("cart", "vip")).body("version", equalTo(0))
                .body("state", equalTo("handed_off")).extract();
        long id = created.jsonPath().getLong("id");
        assertThat(created.header("Location")).endsWith("/v1/reminders/" + id);
        assertThat(publishedFor(id)).hasSize(1);

        // the same body with its tags and data keys in another order changes nothing and publishes nothing
        Map<String, Object> same = new HashMap<>(body);
        same.put("tags", List.of("vip", "cart", "vip"));
        same.put("data", Map.of("currency", "EUR", "items", 2));
        put(key, same).statusCode(200).body("id", equalTo((int) id)).body("version", equalTo(0))
                .body("tags", contains("cart", "vip"));
        assertThat(publishedFor(id)).hasSize(1);

        Map<String, Object> later = new HashMap<>(body);
        String movedTo = inAnHour().plus(Duration.ofMinutes(30)).toString();
        later.put("fire_at", movedTo);
        later.put("tags", List.of("cart"));
        put(key, later).statusCode(200).body("id", equalTo((int) id)).body("version", equalTo(1))
                .body("fire_at", equalTo(movedTo)).body("tags", contains("cart")).body("state", equalTo("handed_off"));
        assertThat(publishedFor(id)).extracting(message -> message.idempotencyKey())
                .containsExactly("reminder:" + id + ":0:0", "reminder:" + id + ":1:0");

        List<Map<String, Object>> history = events(id);
        Map<String, Object> registered = history.stream().filter(event -> "registered".equals(event.get("type")))
                .findFirst().orElseThrow();
        assertThat(registered).containsEntry("key", key).containsEntry("tags", List.of("cart", "vip"))
                .containsEntry("by", "key-1");
        assertThat(history.stream().filter(event -> "rescheduled".equals(event.get("type"))).toList())
                .singleElement().satisfies(event -> assertThat(event).containsEntry("from", body.get("fire_at"))
                        .containsEntry("to", movedTo).containsEntry("version", 1).containsEntry("key", key)
                        .containsEntry("by", "key-1"));
        assertThat(database.count("SELECT count(*) FROM reminders WHERE key = $1", key)).isOne();
    }

    @Test
    void replacingChangesEveryFieldOfTheBody() {
        String key = newKey();
        Map<String, Object> body = reminderAt(inAnHour());
        body.put("data", Map.of("plan", "pro"));
        body.put("expires_after", "PT1H");
        body.put("urgent", true);
        long id = put(key, body).statusCode(201).extract().jsonPath().getLong("id");

        Map<String, Object> other = reminderAt(inAnHour());
        other.put("channel", "sms");
        other.put("template", "cart_abandoned");
        other.put("tz", "Europe/Berlin");
        other.put("tags", List.of("second"));
        JsonPath replaced = put(key, other).statusCode(200).extract().jsonPath();

        assertThat(replaced.getLong("id")).isEqualTo(id);
        assertThat(replaced.getString("user_id")).isEqualTo(other.get("user_id"));
        assertThat(replaced.getString("channel")).isEqualTo("sms");
        assertThat(replaced.getString("template")).isEqualTo("cart_abandoned");
        assertThat(replaced.getString("tz")).isEqualTo("Europe/Berlin");
        assertThat(replaced.getMap("data")).isEmpty();
        assertThat(replaced.getString("expires_at")).isNull();
        assertThat(replaced.getBoolean("urgent")).isFalse();
        assertThat(replaced.getList("tags")).containsExactly("second");
        assertThat(replaced.getInt("version")).isEqualTo(1);
    }

    @Test
    void getByKeyAnswersTheLiveReminderElseTheOneFinishedLast() {
        String key = newKey();
        api().get("/v1/reminders/by-key/" + key).then().statusCode(404).contentType("application/problem+json")
                .body("detail", equalTo("no reminder has the key " + key));
        long first = put(key, reminderAt(inAnHour())).statusCode(201).extract().jsonPath().getLong("id");
        api().get("/v1/reminders/by-key/" + key).then().statusCode(200).body("id", equalTo((int) first));

        api().delete("/v1/reminders/by-key/" + key).then().statusCode(200).body("state", equalTo("cancelled"));
        api().get("/v1/reminders/by-key/" + key).then().statusCode(200).body("id", equalTo((int) first))
                .body("state", equalTo("cancelled"));

        long second = put(key, reminderAt(inAnHour())).statusCode(201).extract().jsonPath().getLong("id");
        assertThat(second).isNotEqualTo(first);
        api().get("/v1/reminders/by-key/" + key).then().statusCode(200).body("id", equalTo((int) second));
        database.setState(second, "sent");
        api().get("/v1/reminders/by-key/" + key).then().statusCode(200).body("id", equalTo((int) second))
                .body("state", equalTo("sent"));
    }

    @Test
    void deleteByKeyCancelsTheLiveReminderAndFreesTheKey() {
        String key = newKey();
        Map<String, Object> body = reminderAt(inAnHour());
        long id = put(key, body).statusCode(201).extract().jsonPath().getLong("id");

        api().delete("/v1/reminders/by-key/" + key).then().statusCode(200).body("id", equalTo((int) id))
                .body("state", equalTo("cancelled")).body("version", equalTo(1));
        assertThat(events(id)).anySatisfy(event -> assertThat(event).containsEntry("type", "cancelled")
                .containsEntry("by", "key-1"));
        api().delete("/v1/reminders/by-key/" + key).then().statusCode(404).contentType("application/problem+json")
                .body("detail", equalTo("no live reminder has the key " + key));
        api().delete("/v1/reminders/by-key/" + newKey()).then().statusCode(404);

        // the same body again is a new reminder: the key is free, and a keyed reminder has no natural key
        long again = put(key, body).statusCode(201).extract().jsonPath().getLong("id");
        assertThat(again).isNotEqualTo(id);
    }

    @Test
    void aDeliveringReminderIsNotReplacedNorCancelledByKey() {
        String key = newKey();
        Map<String, Object> body = reminderAt(inAnHour());
        long id = put(key, body).statusCode(201).extract().jsonPath().getLong("id");
        database.setState(id, "delivering");
        Map<String, Object> later = new HashMap<>(body);
        later.put("fire_at", inAnHour().plus(Duration.ofMinutes(5)).toString());

        put(key, later).statusCode(409).contentType("application/problem+json")
                .body("type", equalTo("urn:tickler:problem:key-delivering"))
                .body("title", equalTo("The key's reminder is being delivered"));
        api().delete("/v1/reminders/by-key/" + key).then().statusCode(409)
                .contentType("application/problem+json")
                .body("type", equalTo("urn:tickler:problem:reminder-state"));
        // a retry of the body it holds changes nothing, so it is answered
        put(key, body).statusCode(200).body("id", equalTo((int) id)).body("version", equalTo(0));

        assertThat(database.text("SELECT state || ':' || version || ':' || fire_at::text FROM reminders WHERE id = $1",
                id)).startsWith("delivering:0:");
        assertThat(database.count("SELECT count(*) FROM reminders WHERE key = $1", key)).isOne();
    }

    @Test
    void aFailedReminderIsReplacedAndGoesRoundAgain() {
        String key = newKey();
        Map<String, Object> body = reminderAt(inAnHour());
        long id = put(key, body).statusCode(201).extract().jsonPath().getLong("id");
        database.setState(id, "failed");
        Map<String, Object> later = new HashMap<>(body);
        later.put("fire_at", inAnHour().plus(Duration.ofMinutes(5)).toString());

        put(key, later).statusCode(200).body("id", equalTo((int) id)).body("state", equalTo("handed_off"))
                .body("version", equalTo(1));
    }

    @Test
    void twoKeysOfOneUserMayFireTheSameTemplateAtTheSameTime() {
        Map<String, Object> body = reminderAt(inAnHour());
        long first = put(newKey(), body).statusCode(201).extract().jsonPath().getLong("id");
        long second = put(newKey(), body).statusCode(201).extract().jsonPath().getLong("id");
        // and the natural key of reminders without one is untouched by them
        long unkeyed = Api.createdId(body);

        assertThat(List.of(first, second, unkeyed)).doesNotHaveDuplicates();
        Api.create(body).statusCode(200).body("id", equalTo((int) unkeyed));
    }

    @Test
    void postWithAKeyCreatesOnceAndRefusesAnotherBodyForALiveKey() {
        String key = newKey();
        Map<String, Object> body = reminderAt(inAnHour());
        body.put("key", key);
        long id = Api.createdId(body);

        Api.create(body).statusCode(200).body("id", equalTo((int) id));
        Map<String, Object> other = new HashMap<>(body);
        other.put("fire_at", inAnHour().plus(Duration.ofMinutes(5)).toString());
        Api.create(other).statusCode(409).contentType("application/problem+json")
                .body("type", equalTo("urn:tickler:problem:registration-differs"))
                .body("reminder_id", equalTo((int) id))
                .body("errors.field", contains("fire_at"))
                .body("detail", equalTo("reminder " + id + " was registered before under the key " + key
                        + " and another fire_at; a retry must repeat the same body, and PUT /v1/reminders/by-key/"
                        + key + " replaces it"));

        api().get("/v1/reminders/by-key/" + key).then().statusCode(200).body("id", equalTo((int) id))
                .body("version", equalTo(0)).body("fire_at", equalTo(body.get("fire_at")));
        assertThat(database.count("SELECT count(*) FROM reminders WHERE key = $1", key)).isOne();
    }

    @Test
    void aBatchAnswersEachKeyedItemAsASinglePostWould() {
        String key = newKey();
        Map<String, Object> keyed = reminderAt(inAnHour());
        keyed.put("key", key);
        keyed.put("tags", List.of("batch"));
        Map<String, Object> unkeyed = reminderAt(inAnHour());
        Map<String, Object> otherBody = new HashMap<>(keyed);
        otherBody.put("fire_at", inAnHour().plus(Duration.ofMinutes(1)).toString());
        Map<String, Object> badKey = reminderAt(inAnHour());
        badKey.put("key", "not a key");

        JsonPath answer = api().body(Map.of("items", List.of(keyed, unkeyed, keyed, otherBody, badKey)))
                .post("/v1/reminders/batch").then().statusCode(200).extract().jsonPath();

        assertThat(answer.getList("items.status", Integer.class)).containsExactly(201, 201, 200, 409, 400);
        assertThat(answer.getLong("items[2].reminder.id")).isEqualTo(answer.getLong("items[0].reminder.id"));
        assertThat(answer.getString("items[0].reminder.key")).isEqualTo(key);
        assertThat(answer.getList("items[0].reminder.tags")).containsExactly("batch");
        assertThat(answer.getString("items[3].problem.type")).isEqualTo("urn:tickler:problem:registration-differs");
        assertThat(answer.getList("items[3].problem.errors.field")).containsExactly("fire_at");
        assertThat(answer.getString("items[4].problem.errors[0].field")).isEqualTo("key");
        assertThat(answer.getString("items[1].reminder.key")).isNull();
        assertThat(database.count("SELECT count(*) FROM reminders WHERE user_id = $1", badKey.get("user_id"))).isZero();
    }

    @Test
    void aBatchAnswersTheRepeatsOfEachOfItsKeysInOrder() {
        List<Map<String, Object>> items = new ArrayList<>();
        List<String> keys = new ArrayList<>();
        for (int k = 0; k < 12; k++) {
            String key = newKey();
            keys.add(key);
            Map<String, Object> first = reminderAt(inAnHour());
            first.put("key", key);
            items.add(first);
        }
        for (int k = 0; k < keys.size(); k++) {
            Map<String, Object> otherBody = new HashMap<>(items.get(k));
            otherBody.put("fire_at", inAnHour().plus(Duration.ofMinutes(1)).toString());
            items.add(items.get(k));
            items.add(otherBody);
        }

        JsonPath answer = api().body(Map.of("items", items)).post("/v1/reminders/batch").then().statusCode(200)
                .extract().jsonPath();

        List<Integer> statuses = answer.getList("items.status", Integer.class);
        for (int k = 0; k < keys.size(); k++) {
            int repeat = keys.size() + 2 * k;
            assertThat(List.of(statuses.get(k), statuses.get(repeat), statuses.get(repeat + 1)))
                    .as("key %d", k).containsExactly(201, 200, 409);
            assertThat(answer.getLong("items[" + repeat + "].reminder.id"))
                    .isEqualTo(answer.getLong("items[" + k + "].reminder.id"));
            assertThat(database.count("SELECT count(*) FROM reminders WHERE key = $1", keys.get(k))).isOne();
        }
    }

    @Test
    void listsFilterByTag() {
        String user = Api.newUser();
        long onlyA = createTagged(user, "a_1", List.of("a"));
        long both = createTagged(user, "a_2", List.of("a", "b"));
        createTagged(user, "none", List.of());

        assertThat(listIds(user, "a")).containsExactly(onlyA, both);
        assertThat(listIds(user, "b")).containsExactly(both);
        assertThat(listIds(user, "c")).isEmpty();
        api().queryParam("user_id", user).queryParam("tag", "not a tag").get("/v1/reminders").then()
                .statusCode(400).body("errors[0].field", equalTo("tag"));
    }

    @Test
    void badKeysInThePathAreRefusedWithTheBodysErrorsAndWriteNothing() {
        Map<String, Object> body = reminderAt(inAnHour());
        body.remove("channel");
        String user = (String) body.get("user_id");

        for (String key : List.of("has%20space", "sl%2Fash", "ключ", "k".repeat(201), "percent%25")) {
            JsonPath refused = api().body(body).put("/v1/reminders/by-key/" + key).then()
                    .statusCode(400).contentType("application/problem+json").extract().jsonPath();
            assertThat(refused.getList("errors.field")).as(key).containsExactlyInAnyOrder("key", "channel");
            api().get("/v1/reminders/by-key/" + key).then().statusCode(400)
                    .body("errors[0].field", equalTo("key"));
            api().delete("/v1/reminders/by-key/" + key).then().statusCode(400)
                    .body("errors[0].field", equalTo("key"));
        }
        assertThat(database.count("SELECT count(*) FROM reminders WHERE user_id = $1", user)).isZero();
    }

    @Test
    void everyKeyCharacterAndTheLongestKeyAreTaken() {
        String key = "Az09_.:-" + "k".repeat(192);
        put(key, reminderAt(inAnHour())).statusCode(201).body("key", equalTo(key));
        api().delete("/v1/reminders/by-key/" + key).then().statusCode(200);
    }

    @Test
    void aBodyKeyOtherThanThePathsAndBadTagsAreRefusedAndWriteNothing() {
        Map<String, Object> body = reminderAt(inAnHour());
        String user = (String) body.get("user_id");
        body.put("key", "another-key");
        body.put("tags", IntStream.range(0, 11).mapToObj(i -> "t" + i).toList());

        JsonPath refused = put(newKey(), body).statusCode(400).extract().jsonPath();

        assertThat(refused.getList("errors.field")).containsExactlyInAnyOrder("key", "tags");
        assertThat(refused.getList("errors.message")).contains("must be the path's key, or left out",
                "must hold at most 10 tags; it holds 11");
        for (Object tags : List.of(List.of("fine", "not fine"), List.of(""), List.of("t".repeat(65)), "vip",
                List.of(7))) {
            Map<String, Object> tagged = reminderAt(inAnHour());
            tagged.put("user_id", user);
            tagged.put("tags", tags);
            Api.create(tagged).statusCode(400).contentType("application/problem+json")
                    .body("errors[0].field", org.hamcrest.Matchers.startsWith("tags"));
        }
        assertThat(database.count("SELECT count(*) FROM reminders WHERE user_id = $1", user)).isZero();
    }

    @Test
    void racingPutsOfOneKeyMakeOneReminder() throws Exception {
        String key = newKey();
        int racers = 16;
        Instant base = inAnHour();
        Map<String, Object> template = reminderAt(base);
        CountDownLatch start = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(racers);
        List<String> fireAts = new ArrayList<>();
        List<Future<Integer>> statuses = new ArrayList<>();
        try {
            for (int i = 0; i < racers; i++) {
                Map<String, Object> body = new HashMap<>(template);
                String fireAt = base.plusSeconds(i).toString();
                body.put("fire_at", fireAt);
                fireAts.add(fireAt);
                statuses.add(pool.submit(() -> {
                    start.await();
                    return put(key, body).extract().statusCode();
                }));
            }
            start.countDown();
            List<Integer> answers = new ArrayList<>();
            for (Future<Integer> status : statuses) {
                answers.add(status.get(60, TimeUnit.SECONDS));
            }

            assertThat(answers.stream().filter(status -> status == 201)).hasSize(1);
            assertThat(answers).containsOnly(200, 201);
        } finally {
            pool.shutdownNow();
        }
        assertThat(database.count("SELECT count(*) FROM reminders WHERE key = $1", key)).isOne();
        JsonPath kept = api().get("/v1/reminders/by-key/" + key).then().statusCode(200).extract().jsonPath();
        assertThat(kept.getString("fire_at")).isIn(fireAts);
        assertThat(events(kept.getLong("id")).stream().filter(event -> "rescheduled".equals(event.get("type"))))
                .hasSize(kept.getInt("version"));
    }

    /** One answer of a racing PUT: its status, and the id and version of the reminder it named. */
    private record Answered(int status, long id, int version) {
    }

    @Test
    void racingRetriesOfOneBodyMakeOneReminderPublishedOnce() throws Exception {
        String key = newKey();
        Map<String, Object> body = reminderAt(inAnHour());
        int racers = 16;
        CountDownLatch start = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(racers);
        List<Future<Answered>> futures = new ArrayList<>();
        List<Answered> answers = new ArrayList<>();
        try {
            for (int i = 0; i < racers; i++) {
                futures.add(pool.submit(() -> {
                    start.await();
                    ExtractableResponse<Response> answer = put(key, body).extract();
                    return new Answered(answer.statusCode(), answer.jsonPath().getLong("id"),
                            answer.jsonPath().getInt("version"));
                }));
            }
            start.countDown();
            for (Future<Answered> future : futures) {
                answers.add(future.get(60, TimeUnit.SECONDS));
            }
        } finally {
            pool.shutdownNow();
        }

        assertThat(answers).filteredOn(answer -> answer.status() == 201).hasSize(1);
        long id = answers.get(0).id();
        assertThat(answers).allSatisfy(answer -> assertThat(answer).isIn(new Answered(201, id, 0),
                new Answered(200, id, 0)));
        assertThat(publishedFor(id)).hasSize(1);
        assertThat(database.count("SELECT count(*) FROM reminders WHERE key = $1", key)).isOne();
    }

    private static long createTagged(String user, String template, List<String> tags) {
        Map<String, Object> body = reminderAt(inAnHour());
        body.put("user_id", user);
        body.put("template", template);
        body.put("tags", tags);
        return Api.createdId(body);
    }

    private static List<Long> listIds(String user, String tag) {
        return api().queryParam("user_id", user).queryParam("tag", tag).get("/v1/reminders").then().statusCode(200)
                .extract().jsonPath().getList("items.id", Long.class);
    }

    private static Instant inAnHour() {
        return Instant.now().plus(Duration.ofHours(1)).truncatedTo(ChronoUnit.SECONDS);
    }
}
