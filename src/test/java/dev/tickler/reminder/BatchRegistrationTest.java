package dev.tickler.reminder;

import static dev.tickler.testing.Api.api;
import static dev.tickler.testing.Api.publishedFor;
import static dev.tickler.testing.Api.reminderAt;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import io.restassured.response.ValidatableResponse;

import dev.tickler.testing.Api;
import dev.tickler.testing.Database;

/**
 * POST /v1/reminders/batch (docs/contract.md#batch-registration): one result per item, in order, each as the single
 * POST would answer it.
 */
@QuarkusTest
class BatchRegistrationTest {

    @Inject
    Database database;

    @Test
    void everyItemIsAnsweredInOrderAndABadOneFailsNoOther() {
        Map<String, Object> first = reminderAt(Instant.now().plus(Duration.ofHours(1)));
        Map<String, Object> wrongChannel = reminderAt(Instant.now().plus(Duration.ofHours(1)));
        wrongChannel.put("channel", "fax");
        Map<String, Object> unknownField = reminderAt(Instant.now().plus(Duration.ofHours(1)));
        unknownField.put("colour", "blue");
        Map<String, Object> parked = reminderAt(Instant.now().plus(Duration.ofDays(30)));

        JsonPath answer = batch(List.of(first, wrongChannel, unknownField, "not an object", parked))
                .statusCode(200).extract().jsonPath();

        assertThat(answer.getList("items.status", Integer.class)).containsExactly(201, 400, 400, 400, 201);
        assertThat(answer.getString("items[0].reminder.state")).isEqualTo("handed_off");
        assertThat(answer.getString("items[0].reminder.user_id")).isEqualTo(first.get("user_id"));
        assertThat(answer.getString("items[1].problem.type")).isEqualTo("urn:tickler:problem:validation");
        assertThat(answer.getString("items[1].problem.errors[0].field")).isEqualTo("channel");
        assertThat(answer.getString("items[2].problem.errors[0].field")).isEqualTo("colour");
        assertThat(answer.getString("items[3].problem.errors[0].field")).isEqualTo("body");
        assertThat(answer.getString("items[4].reminder.state")).isEqualTo("pending");
        assertThat(rowsOf(wrongChannel) + rowsOf(unknownField)).isZero();
        assertThat(publishedFor(answer.getLong("items[0].reminder.id"))).singleElement()
                .satisfies(message -> assertThat(message.idempotencyKey())
                        .isEqualTo("reminder:" + answer.getLong("items[0].reminder.id") + ":0:0"));
        assertThat(publishedFor(answer.getLong("items[4].reminder.id"))).isEmpty();
    }

    @Test
    void aRepeatInsideTheBatchIsCreatedOnceAndTheLaterCopiesAreAnsweredByTheirBody() {
        Map<String, Object> reminder = reminderAt(Instant.now().plus(Duration.ofHours(1)));
        Map<String, Object> sameKeyOtherData = new HashMap<>(reminder);
        sameKeyOtherData.put("data", Map.of("other", true));

        JsonPath answer = batch(List.of(reminder, sameKeyOtherData, reminder)).statusCode(200).extract().jsonPath();

        // the identical copy answers the reminder; the copy with other data is refused, and names it
        assertThat(answer.getList("items.status", Integer.class)).containsExactly(201, 409, 200);
        long id = answer.getLong("items[0].reminder.id");
        assertThat(answer.getLong("items[2].reminder.id")).isEqualTo(id);
        assertThat(answer.getLong("items[1].problem.reminder_id")).isEqualTo(id);
        assertThat(answer.getList("items[1].problem.errors.field")).containsExactly("data");
        assertThat(answer.getMap("items[2].reminder.data")).isEmpty();
        assertThat(rowsOf(reminder)).isEqualTo(1);
    }

    @Test
    void aBatchSentAgainAnswersEveryReminderAsAlreadyRegistered() {
        List<Object> items = List.of(reminderAt(Instant.now().plus(Duration.ofHours(1))),
                reminderAt(Instant.now().plus(Duration.ofDays(9))));
        JsonPath first = batch(items).statusCode(200).extract().jsonPath();

        JsonPath again = batch(items).statusCode(200).extract().jsonPath();

        assertThat(again.getList("items.status", Integer.class)).containsExactly(200, 200);
        assertThat(again.getList("items.reminder.id", Long.class))
                .isEqualTo(first.getList("items.reminder.id", Long.class));
    }

    @Test
    void theSameBatchSentTwiceAtOnceCreatesEachReminderOnce() throws Exception {
        List<Object> items = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            items.add(reminderAt(Instant.now().plus(Duration.ofHours(1))));
        }
        ExecutorService clients = Executors.newFixedThreadPool(2);
        CountDownLatch start = new CountDownLatch(1);
        try {
            List<Future<JsonPath>> answers = new ArrayList<>();
            for (int i = 0; i < 2; i++) {
                answers.add(clients.submit(() -> {
                    start.await();
                    return batch(items).statusCode(200).extract().jsonPath();
                }));
            }
            start.countDown();
            List<Integer> statuses = new ArrayList<>();
            for (Future<JsonPath> answer : answers) {
                statuses.addAll(answer.get().getList("items.status", Integer.class));
            }

            assertThat(statuses).filteredOn(status -> status == 201).hasSize(50);
            assertThat(statuses).filteredOn(status -> status == 200).hasSize(50);
        } finally {
            clients.shutdownNow();
        }
        for (Object item : items) {
            @SuppressWarnings("unchecked")
            Map<String, Object> reminder = (Map<String, Object>) item;
            assertThat(rowsOf(reminder)).isEqualTo(1);
            assertThat(publishedFor(firstIdOf(reminder))).hasSize(1);
        }
    }

    @Test
    void moreThanAThousandItemsAreRefusedAndNothingIsWritten() {
        List<Object> items = new ArrayList<>();
        String user = Api.newUser();
        for (int i = 0; i < 1_001; i++) {
            Map<String, Object> item = reminderAt(Instant.now().plus(Duration.ofDays(20)));
            item.put("user_id", user);
            item.put("template", "t" + i);
            items.add(item);
        }

        batch(items).statusCode(400).contentType("application/problem+json")
                .body("errors[0].field", equalTo("items"));
        assertThat(database.count("SELECT count(*) FROM reminders WHERE user_id = $1", user)).isZero();
    }

    @Test
    void aBodyThatIsNotABatchIsRefusedAsAWhole() {
        api().body("[]").post("/v1/reminders/batch").then().statusCode(400).body("errors[0].field", equalTo("body"));
        api().body("{}").post("/v1/reminders/batch").then().statusCode(400).body("errors[0].field", equalTo("items"));
        api().body("{\"items\": {}}").post("/v1/reminders/batch").then().statusCode(400)
                .body("errors[0].field", equalTo("items"));
        api().body("{\"items\": [], \"extra\": 1}").post("/v1/reminders/batch").then().statusCode(400)
                .body("errors[0].field", equalTo("extra"));
        api().body("{\"items\": []}").post("/v1/reminders/batch").then().statusCode(200)
                .body("items.size()", equalTo(0));
    }

    @Test
    void aBodyOverOneMebibyteIsTooLarge() {
        String padding = " ".repeat(1024 * 1024);

        api().body("{\"items\": []}" + padding).post("/v1/reminders/batch").then().statusCode(413)
                .contentType("application/problem+json");
    }

    @Test
    void aBodyOverTheSingleLimitButUnderTheBatchLimitIsRead() {
        List<Object> items = new ArrayList<>();
        for (int i = 0; i < 400; i++) {
            items.add(reminderAt(Instant.now().plus(Duration.ofDays(20))));
        }

        batch(items).statusCode(200).body("items.size()", equalTo(400));
    }

    private static ValidatableResponse batch(List<?> items) {
        return api().body(Map.of("items", items)).post("/v1/reminders/batch").then();
    }

    private long rowsOf(Map<String, Object> reminder) {
        return database.count("SELECT count(*) FROM reminders WHERE user_id = $1", reminder.get("user_id"));
    }

    private long firstIdOf(Map<String, Object> reminder) {
        return database.count("SELECT id FROM reminders WHERE user_id = $1", reminder.get("user_id"));
    }
}
