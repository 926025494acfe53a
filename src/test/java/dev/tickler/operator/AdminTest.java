package dev.tickler.operator;

import static dev.tickler.testing.Api.api;
import static dev.tickler.testing.InfraiEmulatorResource.emulator;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItems;
import static org.hamcrest.Matchers.notNullValue;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;

import dev.tickler.testing.InfraiEmulatorResource;
import dev.tickler.testing.Ports;

/** /v1/admin: the push subscription for a public base URL, and the queues beside the table. */
@QuarkusTest
class AdminTest {

    @Test
    void subscribesEveryQueueToTheReceiverAtTheBaseUrl() {
        // a base URL nothing listens on: the subscription is what is tested, not pushes to it; while it lasts, every
        // push of its queues fails, so it ends with the test, before the shared application's next test
        String baseUrl = "http://127.0.0.1:" + Ports.freePort() + "/";
        String pushUrl = baseUrl + "q/push-token-2/reminders";
        int before = emulator().stats("sms-reminders").subscriptions();
        try {
            api().body(Map.of("base_url", baseUrl, "token", "push-token-2")).post("/v1/admin/push-subscriptions")
                    .then()
                    .statusCode(200)
                    .body("queue", hasItems("user-reminders", "sms-reminders", InfraiEmulatorResource.PUSHED_QUEUE))
                    .body("url[0]", equalTo(pushUrl));

            assertThat(emulator().stats("sms-reminders").subscriptions()).isEqualTo(before + 1);
        } finally {
            emulator().unsubscribePush(pushUrl);
        }
        assertThat(emulator().stats("sms-reminders").subscriptions()).isEqualTo(before);
    }

    @Test
    void tokenTheReceiverDoesNotAcceptIsRefused() {
        api().body(Map.of("base_url", "https://tickler.example.com", "token", "not-configured"))
                .post("/v1/admin/push-subscriptions").then()
                .statusCode(400)
                .contentType("application/problem+json")
                .body("errors", equalTo(List.of(Map.of("field", "token",
                        "message", "is not one of tickler.push.tokens; every push to it would be refused"))));
    }

    @Test
    void baseUrlMustBeAnAbsoluteHttpUrl() {
        for (String baseUrl : new String[] { "tickler.example.com", "ftp://tickler.example.com", "https://x.example?a=1" }) {
            api().body(Map.of("base_url", baseUrl, "token", "push-token-1")).post("/v1/admin/push-subscriptions").then()
                    .statusCode(400)
                    .body("errors[0].field", equalTo("base_url"));
        }
        api().body(Map.of("token", "push-token-1")).post("/v1/admin/push-subscriptions").then()
                .statusCode(400)
                .body("errors", equalTo(List.of(Map.of("field", "base_url", "message", "is required"))));
    }

    @Test
    void queuesAreShownBesideTheRowCounts() {
        api().get("/v1/admin/queues").then()
                .statusCode(200)
                .body("queues.queue", hasItems("user-reminders", "sms-reminders", InfraiEmulatorResource.PUSHED_QUEUE))
                .body("queues[0].stats.delayed_count", notNullValue())
                .body("reminders.keySet()", hasItems("pending", "handed_off", "delivering", "sent", "failed",
                        "cancelled", "expired"))
                .body("account.credit", notNullValue());
    }

    @Test
    void adminNeedsAnApiKey() {
        given().get("/v1/admin/queues").then().statusCode(401);
    }
}
