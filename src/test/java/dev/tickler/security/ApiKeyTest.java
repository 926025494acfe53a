package dev.tickler.security;

import static dev.tickler.testing.Api.reminderAt;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;

import java.time.Duration;
import java.time.Instant;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.ValidatableResponse;

import dev.tickler.testing.Api;

@QuarkusTest
class ApiKeyTest {

    @Test
    void requestWithoutKeyIsUnauthorized() {
        expectUnauthorized(given().get("/v1/reminders/1").then());
    }

    @Test
    void unknownKeyIsUnauthorized() {
        expectUnauthorized(given().header("Authorization", "Bearer not-a-key").get("/v1/reminders/1").then());
    }

    @Test
    void keyThatOnlyStartsLikeAKnownOneIsUnauthorized() {
        expectUnauthorized(given().header("Authorization", "Bearer " + Api.API_KEY + "x")
                .get("/v1/reminders/1").then());
    }

    @Test
    void otherSchemeIsUnauthorized() {
        expectUnauthorized(given().header("Authorization", "Basic " + Api.API_KEY).get("/v1/reminders/1").then());
    }

    @Test
    void unauthorizedWriteCreatesNothing() {
        expectUnauthorized(given().contentType(ContentType.JSON)
                .body(reminderAt(Instant.now().plus(Duration.ofHours(1))))
                .post("/v1/reminders").then());
    }

    @Test
    void everyConfiguredKeyIsAccepted() {
        for (String key : new String[] { Api.API_KEY, Api.SECOND_API_KEY }) {
            given().header("Authorization", "Bearer " + key).get("/v1/reminders/999999999").then()
                    .statusCode(404);
        }
    }

    @Test
    void schemeIsCaseInsensitive() {
        given().header("Authorization", "bearer " + Api.API_KEY).get("/v1/reminders/999999999").then()
                .statusCode(404);
    }

    @Test
    void withoutOperatorKeysEveryApiKeyIsAnOperator() {
        for (String key : new String[] { Api.API_KEY, Api.SECOND_API_KEY }) {
            given().header("Authorization", "Bearer " + key).get("/v1/admin/queues").then().statusCode(200);
            given().header("Authorization", "Bearer " + key).post("/v1/reconcile").then().statusCode(200);
        }
    }

    @Test
    void emptyBearerKeyIsUnauthorized() {
        expectUnauthorized(given().header("Authorization", "Bearer ").get("/v1/reminders/1").then());
    }

    @Test
    void unknownPathUnderV1NeedsAKeyFirst() {
        expectUnauthorized(given().get("/v1/no-such-call").then());
    }

    private static void expectUnauthorized(ValidatableResponse response) {
        response.statusCode(401)
                .contentType("application/problem+json")
                .header("WWW-Authenticate", "Bearer")
                .body("type", equalTo("urn:tickler:problem:unauthorized"))
                .body("title", equalTo("Missing or unknown API key"))
                .body("status", equalTo(401))
                .body("detail", equalTo("send Authorization: Bearer <api key> with a key configured in tickler.api.keys"));
    }
}
