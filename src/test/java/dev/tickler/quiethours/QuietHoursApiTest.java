package dev.tickler.quiethours;

import static dev.tickler.testing.Api.api;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.notNullValue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import io.restassured.response.ValidatableResponse;

import dev.tickler.testing.Api;
import dev.tickler.testing.Database;

/** PUT, GET and DELETE /v1/users/{user_id}/quiet-hours over real HTTP and Postgres. */
@QuarkusTest
class QuietHoursApiTest {

    @Inject
    Database database;

    static Map<String, Object> weeknights() {
        Map<String, Object> window = new HashMap<>();
        window.put("days", List.of("mon", "tue", "wed", "thu", "fri"));
        window.put("start", "22:00");
        window.put("end", "07:30");
        window.put("channels", List.of("sms", "push"));
        Map<String, Object> body = new HashMap<>();
        body.put("tz", "Europe/Berlin");
        body.put("windows", List.of(window));
        body.put("policy", "defer");
        return body;
    }

    static ValidatableResponse put(String user, Object body) {
        return api().body(body).put("/v1/users/" + user + "/quiet-hours").then();
    }

    static ValidatableResponse get(String user) {
        return api().get("/v1/users/" + user + "/quiet-hours").then();
    }

    @Test
    void quietHoursAreSetReadReplacedAndRemoved() {
        String user = Api.newUser();

        put(user, weeknights()).statusCode(200).contentType("application/json")
                .body("user_id", equalTo(user)).body("tz", equalTo("Europe/Berlin")).body("policy", equalTo("defer"))
                .body("windows[0].days", equalTo(List.of("mon", "tue", "wed", "thu", "fri")))
                .body("windows[0].start", equalTo("22:00")).body("windows[0].end", equalTo("07:30"))
                .body("windows[0].channels", equalTo(List.of("sms", "push"))).body("updated_at", notNullValue());
        get(user).statusCode(200).body("windows[0].end", equalTo("07:30"));

        Map<String, Object> replaced = Map.of("tz", "America/New_York",
                "windows", List.of(Map.of("start", "20:00", "end", "24:00")), "policy", "skip");
        put(user, replaced).statusCode(200);
        get(user).statusCode(200).body("tz", equalTo("America/New_York")).body("policy", equalTo("skip"))
                .body("windows.size()", equalTo(1))
                .body("windows[0].days", equalTo(List.of("mon", "tue", "wed", "thu", "fri", "sat", "sun")))
                .body("windows[0].channels", equalTo(List.of("email", "sms", "push")))
                .body("windows[0].end", equalTo("24:00"));

        api().delete("/v1/users/" + user + "/quiet-hours").then().statusCode(204);
        get(user).statusCode(404).contentType("application/problem+json")
                .body("type", equalTo("urn:tickler:problem:not-found"));
        api().delete("/v1/users/" + user + "/quiet-hours").then().statusCode(204);
    }

    @Test
    void policyDefaultsToDefer() {
        String user = Api.newUser();
        Map<String, Object> body = weeknights();
        body.remove("policy");

        put(user, body).statusCode(200).body("policy", equalTo("defer"));
    }

    @Test
    void aUserWithoutQuietHoursIs404AndNeedsAKey() {
        get(Api.newUser()).statusCode(404).body("type", equalTo("urn:tickler:problem:not-found"));
        given().get("/v1/users/u/quiet-hours").then().statusCode(401);
        given().contentType("application/json").body(weeknights()).put("/v1/users/u/quiet-hours").then().statusCode(401);
    }

    static List<Arguments> invalidBodies() {
        List<Arguments> cases = new ArrayList<>();
        cases.add(Arguments.of("tz", null, "tz"));
        cases.add(Arguments.of("tz", "Mars/Base", "tz"));
        cases.add(Arguments.of("tz", "+01:00", "tz"));
        cases.add(Arguments.of("tz", 5, "tz"));
        cases.add(Arguments.of("policy", "later", "policy"));
        cases.add(Arguments.of("windows", null, "windows"));
        cases.add(Arguments.of("windows", List.of(), "windows"));
        cases.add(Arguments.of("windows", "nightly", "windows"));
        List<Map<String, Object>> tooMany = new ArrayList<>();
        for (int i = 0; i < 29; i++) {
            tooMany.add(Map.of("start", "01:00", "end", "02:00"));
        }
        cases.add(Arguments.of("windows", tooMany, "windows"));
        cases.add(window("days", List.of("mon", "xyz"), "windows[0].days[1]"));
        cases.add(window("days", List.of(), "windows[0].days"));
        cases.add(window("days", List.of("mon", "mon"), "windows[0].days[1]"));
        cases.add(window("days", java.util.Arrays.asList("mon", null), "windows[0].days[1]"));
        cases.add(window("days", "mon", "windows[0].days"));
        cases.add(window("channels", List.of("fax"), "windows[0].channels[0]"));
        cases.add(window("channels", List.of(), "windows[0].channels"));
        cases.add(window("start", null, "windows[0].start"));
        cases.add(window("start", "7:00", "windows[0].start"));
        cases.add(window("start", "24:00", "windows[0].start"));
        cases.add(window("start", "22:00:00", "windows[0].start"));
        cases.add(window("end", "25:00", "windows[0].end"));
        cases.add(window("end", "24:01", "windows[0].end"));
        cases.add(window("end", "22:00", "windows[0].end"));
        cases.add(window("end", null, "windows[0].end"));
        cases.add(window("surprise", "x", "windows[0].surprise"));
        cases.add(Arguments.of("surprise", "x", "surprise"));
        return cases;
    }

    private static Arguments window(String field, Object value, String errorField) {
        return Arguments.of("windows[0]." + field, value, errorField);
    }

    @ParameterizedTest(name = "{0} = {1}")
    @MethodSource("invalidBodies")
    @SuppressWarnings("unchecked")
    void anInvalidBodyIsRefusedWithItsFieldNamedAndWritesNothing(String field, Object value, String errorField) {
        String user = Api.newUser();
        Map<String, Object> body = weeknights();
        if (field.startsWith("windows[0].")) {
            Map<String, Object> window = new HashMap<>(((List<Map<String, Object>>) body.get("windows")).get(0));
            window.put(field.substring("windows[0].".length()), value);
            body.put("windows", List.of(window));
        } else {
            body.put(field, value);
        }

        put(user, body).statusCode(400).contentType("application/problem+json")
                .body("type", equalTo("urn:tickler:problem:validation"))
                .body("errors.field", hasItem(errorField));
        get(user).statusCode(404);
    }

    @Test
    void aRefusedPutLeavesTheQuietHoursThatWereThere() {
        String user = Api.newUser();
        put(user, weeknights()).statusCode(200);
        Map<String, Object> bad = weeknights();
        bad.put("tz", "Nowhere/Else");

        put(user, bad).statusCode(400);
        put(user, "not json").statusCode(400);
        put(user, "null").statusCode(400);

        get(user).statusCode(200).body("tz", equalTo("Europe/Berlin"));
    }

    @Test
    void windowsThatLeaveNoFreeMinuteAreRefusedForDeferButNotForSkip() {
        String user = Api.newUser();
        Map<String, Object> body = Map.of("tz", "UTC", "windows", List.of(
                Map.of("start", "00:00", "end", "24:00", "channels", List.of("sms"))), "policy", "defer");

        put(user, body).statusCode(400).body("errors[0].field", equalTo("windows"));
        get(user).statusCode(404);

        put(user, Map.of("tz", "UTC", "windows", body.get("windows"), "policy", "skip")).statusCode(200);
    }

    @Test
    void extremesThatAreAllowedAreStored() {
        String user = "q".repeat(128);
        List<Map<String, Object>> windows = new ArrayList<>();
        for (int i = 0; i < 28; i++) {
            windows.add(Map.of("days", List.of("sun"), "start", String.format("%02d:00", i % 24),
                    "end", String.format("%02d:30", i % 24)));
        }

        put(user, Map.of("tz", "Pacific/Apia", "windows", windows)).statusCode(200).body("windows.size()", equalTo(28));
        put("q".repeat(129), weeknights()).statusCode(400).body("errors[0].field", equalTo("user_id"));
        api().urlEncodingEnabled(false).body(weeknights()).put("/v1/users/u%00x/quiet-hours").then().statusCode(400)
                .body("errors[0].field", equalTo("user_id"));
        api().urlEncodingEnabled(false).get("/v1/users/u%00x/quiet-hours").then().statusCode(400)
                .body("errors[0].field", equalTo("user_id"));
        api().delete("/v1/users/" + user + "/quiet-hours").then().statusCode(204);
    }

    @Test
    void concurrentPutsLeaveOneOfThemWhole() throws Exception {
        String user = Api.newUser();
        String[] zones = { "Europe/Berlin", "America/New_York", "Asia/Tokyo", "Australia/Lord_Howe", "UTC" };
        int puts = 20;
        ExecutorService pool = Executors.newFixedThreadPool(puts);
        CountDownLatch start = new CountDownLatch(1);
        try {
            List<Future<Integer>> answers = new ArrayList<>();
            for (int i = 0; i < puts; i++) {
                Map<String, Object> body = Map.of("tz", zones[i % zones.length], "windows", List.of(
                        Map.of("start", String.format("%02d:00", i), "end", String.format("%02d:30", i))));
                answers.add(pool.submit(() -> {
                    start.await();
                    return put(user, body).extract().statusCode();
                }));
            }
            start.countDown();
            for (Future<Integer> answer : answers) {
                assertThat(answer.get(30, TimeUnit.SECONDS)).isEqualTo(200);
            }
        } finally {
            pool.shutdownNow();
        }

        JsonPath stored = get(user).statusCode(200).extract().jsonPath();
        int which = Integer.parseInt(stored.getString("windows[0].start").substring(0, 2));
        assertThat(stored.getString("tz")).isEqualTo(zones[which % zones.length]);
        assertThat(stored.getString("windows[0].end")).isEqualTo(String.format("%02d:30", which));
        assertThat(database.count("SELECT count(*) FROM quiet_hours WHERE user_id = $1", user)).isEqualTo(1);
    }

    @Test
    void theApiDocumentDescribesTheCalls() {
        JsonPath document = given().port(dev.tickler.testing.InfraiEmulatorResource.managementPort())
                .accept("application/json").get("/q/openapi?format=json").then().statusCode(200).extract().jsonPath();
        String path = "paths.'/v1/users/{user_id}/quiet-hours'";

        assertThat(document.getString(path + ".put.summary")).isNotBlank();
        assertThat(document.getMap(path + ".put.responses")).containsKeys("200", "400", "401", "403");
        assertThat(document.getMap(path + ".get.responses")).containsKeys("200", "404");
        assertThat(document.getMap(path + ".delete.responses")).containsKeys("204");
    }
}
