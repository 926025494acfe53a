package dev.tickler.schedule;

import static dev.tickler.testing.Api.api;

import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.restassured.path.json.JsonPath;
import io.restassured.response.ValidatableResponse;

import dev.tickler.testing.Api;

/** Calls the schedules API as a product service would, and reads a schedule's occurrences back through the API. */
final class Schedules {

    private Schedules() {
    }

    /** A valid schedule body for a fresh user on the email channel (whose queue does not push in tests). */
    static Map<String, Object> schedule(String start, String tz, String rrule) {
        Map<String, Object> body = new HashMap<>();
        body.put("user_id", Api.newUser());
        body.put("channel", "email");
        body.put("template", "water_plants");
        body.put("tz", tz);
        body.put("start", start);
        body.put("rrule", rrule);
        return body;
    }

    static ValidatableResponse create(Map<String, Object> body) {
        return api().body(body).post("/v1/schedules").then();
    }

    static long createdId(Map<String, Object> body) {
        return create(body).statusCode(201).extract().jsonPath().getLong("id");
    }

    static ValidatableResponse get(long id) {
        return api().get("/v1/schedules/" + id).then();
    }

    static JsonPath preview(long id, int count) {
        return api().queryParam("count", count).get("/v1/schedules/" + id + "/preview").then().statusCode(200)
                .extract().jsonPath();
    }

    static ValidatableResponse post(long id, String action) {
        return api().post("/v1/schedules/" + id + "/" + action).then();
    }

    /** The user's reminders that are occurrences of the schedule, by occurrence number. */
    @SuppressWarnings("unchecked")
    static List<Map<String, Object>> occurrences(String userId, long scheduleId) {
        List<Map<String, Object>> items = api().queryParam("user_id", userId).queryParam("limit", 500)
                .get("/v1/reminders").then().statusCode(200).extract().jsonPath().getList("items");
        return items.stream()
                .filter(item -> item.get("schedule_id") != null
                        && ((Number) item.get("schedule_id")).longValue() == scheduleId)
                .sorted(Comparator.comparingInt(item -> ((Number) item.get("occurrence")).intValue()))
                .toList();
    }

    /** Schedules a test creates, deleted (ended, their unsent occurrences cancelled) when it is done. */
    static final class Created {

        private final List<Long> ids = new java.util.ArrayList<>();

        long create(Map<String, Object> body) {
            long id = createdId(body);
            ids.add(id);
            return id;
        }

        void add(long id) {
            ids.add(id);
        }

        void endAll() {
            ids.forEach(id -> api().delete("/v1/schedules/" + id).then().statusCode(200));
            ids.clear();
        }
    }

    /** Occurrence number to state. */
    static Map<Integer, String> states(String userId, long scheduleId) {
        Map<Integer, String> states = new java.util.TreeMap<>();
        occurrences(userId, scheduleId).forEach(item -> states.put(((Number) item.get("occurrence")).intValue(),
                (String) item.get("state")));
        return states;
    }
}
