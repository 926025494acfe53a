package dev.tickler.reminder;

import static dev.tickler.testing.Api.api;
import static dev.tickler.testing.Api.createdId;
import static dev.tickler.testing.Api.newUser;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.nullValue;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import io.restassured.response.ValidatableResponse;

import dev.tickler.testing.FutureDates;

@QuarkusTest
class ReminderListTest {

    /** Midnight UTC of a day beyond the hand-off window, so the listed reminders stay pending; months after it. */
    private final LocalDate day = FutureDates.day();

    private String midnight(int monthsLater) {
        return FutureDates.at(day.plusMonths(monthsLater), 0).toString();
    }

    @Test
    void pagesWalkAUsersRemindersInFireAtThenIdOrder() {
        String user = newUser();
        List<Long> expected = new ArrayList<>();
        // created out of order, two of them at the same instant under templates whose order is not their ids'
        expected.add(createdId(reminder(user, "c", midnight(2))));
        expected.add(0, createdId(reminder(user, "a", midnight(0))));
        expected.add(1, createdId(reminder(user, "b2", midnight(1))));
        expected.add(2, createdId(reminder(user, "b1", midnight(1))));
        expected.add(createdId(reminder(user, "d", midnight(3))));
        createdId(reminder(newUser(), "a", midnight(0)));

        List<Long> seen = new ArrayList<>();
        String cursor = null;
        int pages = 0;
        do {
            var request = api().queryParam("user_id", user).queryParam("limit", 2);
            if (cursor != null) {
                request.queryParam("after", cursor);
            }
            JsonPath page = request.get("/v1/reminders").then().statusCode(200).extract().jsonPath();
            seen.addAll(page.getList("items.id", Long.class));
            cursor = page.getString("next");
            pages++;
        } while (cursor != null);

        assertThat(seen).isEqualTo(expected);
        assertThat(pages).isEqualTo(3);
    }

    @Test
    void lastFullPageHasNoNext() {
        String user = newUser();
        createdId(reminder(user, "a", midnight(0)));
        createdId(reminder(user, "b", FutureDates.at(day.plusDays(1), 0).toString()));

        api().queryParam("user_id", user).queryParam("limit", 2).get("/v1/reminders").then()
                .statusCode(200)
                .body("items.size()", equalTo(2))
                .body("next", nullValue());
    }

    @Test
    void stateFiltersTheList() {
        String user = newUser();
        long kept = createdId(reminder(user, "a", midnight(0)));
        long cancelled = createdId(reminder(user, "b", FutureDates.at(day.plusDays(1), 0).toString()));
        api().delete("/v1/reminders/" + cancelled).then().statusCode(200);

        api().queryParam("user_id", user).queryParam("state", "cancelled").get("/v1/reminders").then()
                .statusCode(200)
                .body("items.id", equalTo(List.of((int) cancelled)));
        api().queryParam("user_id", user).queryParam("state", "pending").get("/v1/reminders").then()
                .statusCode(200)
                .body("items.id", equalTo(List.of((int) kept)));
    }

    @Test
    void stateTakesSeveralStatesCommaSeparatedOrRepeated() {
        String user = newUser();
        long handedOff = createdId(reminder(user, "a", Instant.now().plus(Duration.ofDays(1)).toString()));
        long pending = createdId(reminder(user, "b", midnight(0)));
        long cancelled = createdId(reminder(user, "c", midnight(1)));
        api().delete("/v1/reminders/" + cancelled).then().statusCode(200);

        assertThat(listed(user, "pending,handed_off")).containsExactly(handedOff, pending);
        assertThat(listed(user, "pending", "cancelled")).containsExactly(pending, cancelled);
        assertThat(listed(user, "handed_off,cancelled", "pending")).containsExactly(handedOff, pending, cancelled);
        assertThat(listed(user, "")).containsExactly(handedOff, pending, cancelled);
        expectFieldError(api().queryParam("user_id", user).queryParam("state", "pending,lost").get("/v1/reminders")
                .then(), "state",
                "must be one of pending, handed_off, delivering, sent, failed, cancelled, expired, skipped");
    }

    private static List<Long> listed(String user, Object... states) {
        return api().queryParam("user_id", user).queryParam("state", states).get("/v1/reminders").then()
                .statusCode(200).extract().jsonPath().getList("items.id", Long.class);
    }

    @Test
    void defaultLimitIsFifty() {
        String user = newUser();
        for (int day = 1; day <= 51; day++) {
            createdId(reminder(user, "t" + day, FutureDates.at(this.day, 0).plus(Duration.ofDays(day)).toString()));
        }
        api().queryParam("user_id", user).get("/v1/reminders").then()
                .statusCode(200)
                .body("items.size()", equalTo(50))
                .body("next", notNullValue());
    }

    @Test
    void userIdIsRequired() {
        expectFieldError(api().get("/v1/reminders").then(), "user_id", "is required");
    }

    @Test
    void limitOutsideOneToFiveHundredIsRefused() {
        for (String limit : new String[] { "0", "501", "ten" }) {
            expectFieldError(api().queryParam("user_id", "u").queryParam("limit", limit).get("/v1/reminders").then(),
                    "limit", "must be a whole number from 1 to 500");
        }
    }

    @Test
    void fiveHundredIsAllowed() {
        api().queryParam("user_id", newUser()).queryParam("limit", 500).get("/v1/reminders").then()
                .statusCode(200).body("items.size()", equalTo(0)).body("next", nullValue());
    }

    @Test
    void unknownStateIsRefused() {
        expectFieldError(api().queryParam("user_id", "u").queryParam("state", "lost").get("/v1/reminders").then(),
                "state", "must be one of pending, handed_off, delivering, sent, failed, cancelled, expired, skipped");
    }

    @Test
    void cursorThatWasNotIssuedIsRefused() {
        expectFieldError(api().queryParam("user_id", "u").queryParam("after", "bm90LWEtY3Vyc29y")
                .get("/v1/reminders").then(), "after", "must be a cursor from a previous page's next");
    }

    private static Map<String, Object> reminder(String user, String template, String fireAt) {
        Map<String, Object> body = new HashMap<>();
        body.put("user_id", user);
        body.put("channel", "email");
        body.put("template", template);
        body.put("fire_at", fireAt);
        return body;
    }

    private static void expectFieldError(ValidatableResponse response, String field, String message) {
        response.statusCode(400)
                .contentType("application/problem+json")
                .body("type", equalTo("urn:tickler:problem:validation"))
                .body("errors", equalTo(List.of(Map.of("field", field, "message", message))));
    }
}
