package dev.tickler.reminder;

import static dev.tickler.testing.OperatorKeysProfile.BILLING;
import static dev.tickler.testing.OperatorKeysProfile.CHECKOUT;
import static dev.tickler.testing.OperatorKeysProfile.CHECKOUT_NEXT;
import static dev.tickler.testing.OperatorKeysProfile.OPS;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import io.restassured.specification.RequestSpecification;

import dev.tickler.testing.Api;
import dev.tickler.testing.OperatorKeysProfile;

/**
 * Keys and cancels by filter between tenants (docs/api.md, "Tenants"): a key is its tenant's, so another tenant's key
 * is simply not found and its PUT makes a reminder of its own; a cancel by filter reaches the caller's tenant only;
 * operators filter every tenant's by key and tag.
 */
@QuarkusTest
@TestProfile(OperatorKeysProfile.class)
class KeyedTenantsTest {

    @Test
    void anotherTenantsKeyIsNotFoundAndItsPutMakesItsOwnReminder() {
        String key = Api.newKey();
        Map<String, Object> body = Api.reminderAt(inAnHour());
        long checkouts = as(CHECKOUT).body(body).put("/v1/reminders/by-key/" + key).then().statusCode(201)
                .body("tenant", equalTo("checkout")).extract().jsonPath().getLong("id");

        as(BILLING).get("/v1/reminders/by-key/" + key).then().statusCode(404);
        as(BILLING).delete("/v1/reminders/by-key/" + key).then().statusCode(404);
        Map<String, Object> other = Api.reminderAt(inAnHour().plus(Duration.ofMinutes(5)));
        long billings = as(BILLING).body(other).put("/v1/reminders/by-key/" + key).then().statusCode(201)
                .body("tenant", equalTo("billing")).extract().jsonPath().getLong("id");

        assertThat(billings).isNotEqualTo(checkouts);
        // the rotated key of the same tenant names the same reminder
        as(CHECKOUT_NEXT).get("/v1/reminders/by-key/" + key).then().statusCode(200)
                .body("id", equalTo((int) checkouts)).body("version", equalTo(0))
                .body("fire_at", equalTo(body.get("fire_at")));
        List<Object> tenants = as(OPS).queryParam("key", key).get("/v1/admin/reminders").then().statusCode(200)
                .extract().jsonPath().getList("items.tenant");
        assertThat(tenants).containsExactlyInAnyOrder("checkout", "billing");
        as(OPS).queryParam("key", key).queryParam("tenant", "billing").get("/v1/admin/reminders").then()
                .statusCode(200).body("items.id", equalTo(List.of((int) billings)));
    }

    @Test
    void aCancelByFilterReachesTheCallersTenantOnly() {
        String user = Api.newUser();
        Map<String, Object> checkouts = Api.reminderAt(inAnHour());
        checkouts.put("user_id", user);
        checkouts.put("tags", List.of("promo"));
        long checkout = as(CHECKOUT).body(checkouts).post("/v1/reminders").then().statusCode(201).extract()
                .jsonPath().getLong("id");
        Map<String, Object> billings = Api.reminderAt(inAnHour());
        billings.put("user_id", user);
        billings.put("tags", List.of("promo"));
        long billing = as(BILLING).body(billings).post("/v1/reminders").then().statusCode(201).extract()
                .jsonPath().getLong("id");

        as(BILLING).body(Map.of("user_id", user, "tag", "promo")).post("/v1/reminders/cancel").then()
                .statusCode(200).body("cancelled", equalTo(1));

        as(BILLING).get("/v1/reminders/" + billing).then().body("state", equalTo("cancelled"));
        as(CHECKOUT).get("/v1/reminders/" + checkout).then().body("state", equalTo("handed_off"))
                .body("version", equalTo(0));
        as(OPS).queryParam("user_id", user).queryParam("tag", "promo").queryParam("state", "handed_off")
                .get("/v1/admin/reminders").then().statusCode(200).body("items.id", equalTo(List.of((int) checkout)));
    }

    private static RequestSpecification as(String secret) {
        return given().header("Authorization", "Bearer " + secret).contentType(ContentType.JSON);
    }

    private static Instant inAnHour() {
        return Instant.now().plus(Duration.ofHours(1)).truncatedTo(ChronoUnit.SECONDS);
    }
}
