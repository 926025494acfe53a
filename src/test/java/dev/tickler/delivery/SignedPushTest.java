package dev.tickler.delivery;

import static dev.tickler.testing.Api.createdId;
import static dev.tickler.testing.Api.pushReminderAt;
import static dev.tickler.testing.Push.message;
import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import io.restassured.response.ValidatableResponse;

import dev.tickler.testing.Api;
import dev.tickler.testing.InfraiEmulatorResource;
import dev.tickler.testing.SigningAndReconcileProfile;

/** With tickler.push.signing-secret set, only bodies carrying their HMAC-SHA256 are taken. */
@QuarkusTest
@TestProfile(SigningAndReconcileProfile.class)
class SignedPushTest {

    @Test
    void signedPushFromTheQueueIsDelivered() {
        long id = createdId(pushReminderAt(Instant.now()));

        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> Api.get(id).body("state", equalTo("sent")));
    }

    @Test
    void hexSignatureWithOrWithoutPrefixIsAccepted() {
        String message = message(999_999_990L, 0);

        pushSigned(message, "sha256=" + sign(message)).statusCode(200);
        pushSigned(message, sign(message)).statusCode(200);
        pushSigned(message, "SHA256=" + sign(message).toUpperCase()).statusCode(200);
    }

    @Test
    void missingSignatureIsUnauthorized() {
        given().contentType(ContentType.JSON).body(message(1, 0)).post("/q/push-token-1/reminders").then()
                .statusCode(401)
                .contentType("application/problem+json")
                .body("type", equalTo("urn:tickler:problem:bad-signature"));
    }

    @Test
    void signatureOfAnotherBodyIsUnauthorized() {
        pushSigned(message(1, 0), "sha256=" + sign(message(2, 0))).statusCode(401);
    }

    @Test
    void signatureThatIsNotHexIsUnauthorized() {
        pushSigned(message(1, 0), "sha256=not-hex").statusCode(401);
    }

    @Test
    void wrongTokenIsStillABareNotFound() {
        String message = message(1, 0);
        given().contentType(ContentType.JSON).header("X-Infrai-Signature", sign(message)).body(message)
                .post("/q/not-a-token/reminders").then().statusCode(404);
    }

    private static ValidatableResponse pushSigned(String body, String signature) {
        return given().contentType(ContentType.JSON).header("X-Infrai-Signature", signature).body(body)
                .post("/q/push-token-1/reminders").then();
    }

    private static String sign(String body) {
        return HexFormat.of().formatHex(new PushSignature(InfraiEmulatorResource.SIGNING_SECRET)
                .sign(body.getBytes(StandardCharsets.UTF_8)));
    }
}
