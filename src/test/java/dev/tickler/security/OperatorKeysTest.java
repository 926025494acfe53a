package dev.tickler.security;

import static dev.tickler.testing.Api.reminderAt;
import static dev.tickler.testing.InfraiEmulatorResource.emulator;
import static dev.tickler.testing.OperatorKeysProfile.BARE_OPERATOR;
import static dev.tickler.testing.OperatorKeysProfile.BARE_PRODUCT;
import static dev.tickler.testing.OperatorKeysProfile.CHECKOUT;
import static dev.tickler.testing.OperatorKeysProfile.OPS;
import static dev.tickler.testing.OperatorKeysProfile.SECRET_MARK;
import static dev.tickler.testing.OperatorKeysProfile.SPLIT;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.notNullValue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.logging.Level;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import io.restassured.response.ValidatableResponse;
import io.restassured.specification.RequestSpecification;

import dev.tickler.testing.CapturedLogs;
import dev.tickler.testing.InfraiEmulatorResource;
import dev.tickler.testing.OperatorKeysProfile;
import dev.tickler.testing.Ports;
import dev.tickler.testing.RawHttp;
import dev.tickler.testing.RawHttp.Departure;

/**
 * Keys and roles (docs/contract.md#keys-and-roles) with operator keys configured: product keys for product calls,
 * operator keys for everything.
 */
@QuarkusTest
@TestProfile(OperatorKeysProfile.class)
class OperatorKeysTest {

    /** Each key of the profile and the name it goes by. */
    private static final Map<String, String> PRODUCT_KEYS = Map.of(CHECKOUT, "checkout", BARE_PRODUCT, "key-1",
            SPLIT, "split");
    private static final Map<String, String> OPERATOR_KEYS = Map.of(OPS, "ops", BARE_OPERATOR, "operator-1");

    @Test
    void productKeysRegisterAndReadReminders() {
        for (String key : PRODUCT_KEYS.keySet()) {
            long id = as(key).body(reminderAt(Instant.now().plus(Duration.ofHours(1)))).post("/v1/reminders").then()
                    .statusCode(201).extract().jsonPath().getLong("id");

            as(key).get("/v1/reminders/" + id).then().statusCode(200).body("id", equalTo((int) id));
        }
    }

    @Test
    void operatorKeysMakeProductAndOperatorCalls() {
        for (String key : OPERATOR_KEYS.keySet()) {
            as(key).body(reminderAt(Instant.now().plus(Duration.ofHours(1)))).post("/v1/reminders").then()
                    .statusCode(201);
            as(key).get("/v1/admin/queues").then().statusCode(200).body("queues", notNullValue());
            as(key).post("/v1/sweep").then().statusCode(200).body("handed_off", notNullValue());
            as(key).post("/v1/reconcile").then().statusCode(200).body("reconciled", notNullValue());
        }
    }

    @Test
    void productKeyOnAnOperatorCallIsForbiddenAndNothingRuns() {
        int subscriptions = emulator().stats("sms-reminders").subscriptions();
        String baseUrl = "http://127.0.0.1:" + Ports.freePort() + "/";
        try (CapturedLogs logs = CapturedLogs.start()) {
            for (String key : PRODUCT_KEYS.keySet()) {
                expectForbidden(as(key).get("/v1/admin/queues").then());
                expectForbidden(as(key).post("/v1/sweep").then());
                expectForbidden(as(key).post("/v1/reconcile").then());
                expectForbidden(as(key).body(Map.of("base_url", baseUrl, "token", InfraiEmulatorResource.PUSH_TOKEN))
                        .post("/v1/admin/push-subscriptions").then());
                expectForbidden(as(key).get("/v1/admin/reminders").then());
                expectForbidden(as(key).get("/v1/admin/overview").then());
                expectForbidden(as(key).body(Map.of("dry_run", false)).post("/v1/admin/redrive").then());
                expectForbidden(as(key).body(Map.of("state", "pending", "dry_run", false)).post("/v1/admin/cancel")
                        .then());
            }

            assertThat(emulator().stats("sms-reminders").subscriptions()).isEqualTo(subscriptions);
            assertThat(logs.lines()).noneMatch(line -> line.startsWith("dev.tickler.sweep"));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = { "Bearer not-a-key", "Bearer ", "Bearer", "Bearer checkout", "Bearer split", "Bearer se",
            "Bearer split=" + SPLIT, "Bearer " + OPS + "x", "Basic b3BzOm9wcy1zM2NyM3Q=", "Token " + OPS, OPS })
    void requestWithoutAKnownBearerKeyIsUnauthorized(String authorization) {
        expectUnauthorized(given().header("Authorization", authorization).get("/v1/reminders/1").then());
        expectUnauthorized(given().header("Authorization", authorization).post("/v1/sweep").then());
    }

    @Test
    void requestWithoutAuthorizationIsUnauthorizedEverywhereUnderV1() {
        expectUnauthorized(given().get("/v1/reminders/1").then());
        expectUnauthorized(given().get("/v1/admin/queues").then());
        expectUnauthorized(given().post("/v1/sweep").then());
        expectUnauthorized(given().get("/v1/no-such-call").then());
        expectUnauthorized(given().get("/v1").then());
    }

    @Test
    void callersAreLoggedByNameAndNoSecretIsLogged() {
        try (CapturedLogs logs = CapturedLogs.start()) {
            for (String key : PRODUCT_KEYS.keySet()) {
                as(key).get("/v1/reminders/999999999").then().statusCode(404);
                expectForbidden(as(key).post("/v1/sweep").then());
            }
            for (String key : OPERATOR_KEYS.keySet()) {
                as(key).post("/v1/sweep").then().statusCode(200);
            }
            expectUnauthorized(given().header("Authorization", "Bearer wrong-" + SECRET_MARK).post("/v1/sweep").then());
            expectUnauthorized(given().header("Authorization", "Bearer split=" + SPLIT).post("/v1/sweep").then());

            // the access log names the caller ("%u"), after the answer has gone out
            await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> {
                for (String name : List.of("checkout", "key-1", "split", "ops", "operator-1")) {
                    assertThat(logs.lines()).anyMatch(line -> line.contains(" - " + name + " ["));
                }
            });
            assertThat(logs.lines()).anyMatch(line -> line.endsWith("sweep requested by ops"))
                    .anyMatch(line -> line.endsWith("sweep requested by operator-1"));
            assertThat(logs.lines()).noneMatch(line -> line.contains(SECRET_MARK));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = { "/v1//sweep", "//v1/sweep", "/v1/./sweep", "/v1/reminders/../sweep", "/v1/%73weep",
            "/v1/sweep/", "/V1/sweep", "/v1/admin/../sweep", "/v1/sweep;x=1", "/v1/sweep?x=1" })
    void operatorCallSpelledOtherwiseStaysClosed(String path) {
        try (CapturedLogs logs = CapturedLogs.start()) {
            for (String key : List.of(CHECKOUT, "not-a-key")) {
                String request = "POST " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " + key
                        + "\r\nContent-Length: 0\r\n\r\n";

                String answer = RawHttp.exchange(request.getBytes(StandardCharsets.US_ASCII), Departure.READ_ANSWER);

                assertThat(RawHttp.status(answer)).as(key + " " + path + "\n" + answer).isIn(400, 401, 403, 404, 405);
                assertThat(answer.toLowerCase()).as(answer).contains("content-type: application/problem+json");
            }
            assertThat(logs.lines()).noneMatch(line -> line.startsWith("dev.tickler.sweep"));
            assertThat(logs.records()).noneMatch(record -> record.getLevel().intValue() >= Level.WARNING.intValue());
        }
    }

    @Test
    void concurrentCallsWithDifferentKeysEachGetTheirOwnAnswer() {
        record Call(String key, String method, String path, int expected) {
        }
        List<Call> calls = List.of(
                new Call(CHECKOUT, "GET", "/v1/reminders/999999999", 404),
                new Call(CHECKOUT, "GET", "/v1/admin/queues", 403),
                new Call(OPS, "GET", "/v1/admin/queues", 200),
                new Call(BARE_OPERATOR, "GET", "/v1/reminders/999999999", 404),
                new Call("not-a-key", "GET", "/v1/admin/queues", 401),
                new Call(SPLIT, "POST", "/v1/reconcile", 403));
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        List<CompletableFuture<String>> outcomes = new ArrayList<>();
        for (int i = 0; i < 120; i++) {
            Call call = calls.get(i % calls.size());
            HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + RawHttp.port() + call.path()))
                    .header("Authorization", "Bearer " + call.key())
                    .method(call.method(), HttpRequest.BodyPublishers.noBody())
                    .build();
            outcomes.add(client.sendAsync(request, HttpResponse.BodyHandlers.ofString())
                    .thenApply(answer -> answer.statusCode() == call.expected() ? "ok"
                            : call + " answered " + answer.statusCode() + " " + answer.body()));
        }

        assertThat(outcomes.stream().map(CompletableFuture::join)).containsOnly("ok");
    }

    private static RequestSpecification as(String key) {
        return given().header("Authorization", "Bearer " + key).contentType(ContentType.JSON);
    }

    static void expectForbidden(ValidatableResponse response) {
        response.statusCode(403)
                .contentType("application/problem+json")
                .body("type", equalTo("urn:tickler:problem:forbidden"))
                .body("status", equalTo(403))
                .body("title", notNullValue())
                .body("detail", notNullValue());
    }

    static void expectUnauthorized(ValidatableResponse response) {
        response.statusCode(401)
                .contentType("application/problem+json")
                .header("WWW-Authenticate", "Bearer")
                .body("type", equalTo("urn:tickler:problem:unauthorized"))
                .body("status", equalTo(401));
    }
}
