package dev.tickler.delivery;

import static dev.tickler.testing.Api.createdId;
import static dev.tickler.testing.Api.reminderAt;
import static dev.tickler.testing.Push.message;
import static dev.tickler.testing.Push.push;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.emptyString;
import static org.hamcrest.Matchers.equalTo;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.DisabledOnIntegrationTest;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;

import dev.tickler.testing.Api;
import dev.tickler.testing.CapturedLogs;
import dev.tickler.testing.Metrics;

/** The receiver's answers: tokens, body shapes, bad input, and what a message that claims nothing gets. */
@QuarkusTest
class PushReceiverTest {

    private static final Duration DEADLINE = Duration.ofSeconds(10);

    @Test
    @DisabledOnIntegrationTest("reads the application's log records, which only a same-process test can")
    void wrongTokenIsABareNotFoundAndTheTokenIsNeverLoggedOrLabelled() {
        String wrongToken = "wrong-token-7f3c9a";
        long id = handedOffReminder();
        try (CapturedLogs logs = CapturedLogs.start()) {
            push(wrongToken, message(id, 0)).statusCode(404).body(emptyString());
            push(message(id, 0)).statusCode(200);
            push("push-token-2", message(999_999_999L, 0)).statusCode(200);

            Api.get(id).statusCode(200);

            String metrics = Metrics.page();
            assertThat(metrics).doesNotContain(wrongToken).doesNotContain("push-token-1").doesNotContain("push-token-2");
            // the capture works: the access log line of the API call is there
            await().atMost(DEADLINE).until(() -> logs.lines().stream()
                    .anyMatch(line -> line.contains("GET /v1/reminders/" + id)));
            assertThat(logs.lines()).noneMatch(line -> line.contains(wrongToken) || line.contains("push-token"));
        }
    }

    @Test
    void everyConfiguredTokenIsAccepted() {
        push("push-token-2", message(999_999_999L, 0)).statusCode(200);
    }

    @Test
    void bareBodyClaimsAndDelivers() {
        long id = handedOffReminder();

        push(message(id, 0)).statusCode(200).body("result", equalTo("claimed"));

        awaitState(id, "sent");
    }

    @Test
    void envelopeWithPayloadClaims() {
        long id = handedOffReminder();

        push("{\"message_id\": \"msg_1\", \"delivery_count\": 1, \"payload\": " + message(id, 0) + "}")
                .statusCode(200).body("result", equalTo("claimed"));
    }

    @Test
    void envelopeWithBodyClaims() {
        long id = handedOffReminder();

        push("{\"message_id\": \"msg_1\", \"delivery_count\": 1, \"body\": " + message(id, 0) + "}")
                .statusCode(200).body("result", equalTo("claimed"));
    }

    @Test
    void envelopeWithPayloadAsJsonTextClaims() {
        long id = handedOffReminder();
        String text = message(id, 0).replace("\"", "\\\"");

        push("{\"message_id\": \"msg_1\", \"payload\": \"" + text + "\"}")
                .statusCode(200).body("result", equalTo("claimed"));
    }

    @Test
    void unknownReminderIsAcknowledgedAndIgnored() {
        push(message(999_999_998L, 0)).statusCode(200)
                .body("result", equalTo("ignored"))
                .body("reason", equalTo("unknown"));
    }

    @Test
    void bodyThatIsNotJsonIsRefused() {
        given().contentType(ContentType.TEXT).body("reminder 8801 please")
                .post("/q/push-token-1/reminders").then()
                .statusCode(400)
                .contentType("application/problem+json")
                .body("type", equalTo("urn:tickler:problem:unreadable-message"))
                .body("detail", equalTo("the body is not JSON"));
    }

    @Test
    void messageWithoutReminderIdIsRefused() {
        push("{\"payload\": {\"version\": 0}}").statusCode(400)
                .body("detail", equalTo("no integer reminder_id in the message"));
        push("{\"reminder_id\": \"8801\", \"version\": 0}").statusCode(400)
                .body("detail", equalTo("no integer reminder_id in the message"));
    }

    @Test
    void messageWithoutVersionIsRefused() {
        push("{\"reminder_id\": 8801}").statusCode(400)
                .body("detail", equalTo("no integer version in the message"));
    }

    @Test
    void bodyOverTwoHundredFiftySixKibibytesIsTooLarge() {
        String padding = " ".repeat(256 * 1024);
        push("{\"reminder_id\": 1, \"version\": 0}" + padding).statusCode(413);
    }

    @Test
    void bodyJustUnderTheLimitIsRead() {
        String padding = " ".repeat(255 * 1024);
        push("{\"reminder_id\": 999999997, \"version\": 0}" + padding).statusCode(200);
    }

    /** A reminder on the email queue, which has no push subscription: only the test's own pushes reach it. */
    private static long handedOffReminder() {
        Map<String, Object> body = reminderAt(Instant.now());
        long id = createdId(body);
        Api.get(id).body("state", equalTo("handed_off"));
        return id;
    }

    private static void awaitState(long id, String state) {
        await().atMost(DEADLINE).untilAsserted(() -> Api.get(id).body("state", equalTo(state)));
    }
}
