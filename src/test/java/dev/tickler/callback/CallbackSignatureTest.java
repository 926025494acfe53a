package dev.tickler.callback;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Base64;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import org.junit.jupiter.api.Test;

import com.standardwebhooks.Webhook;

/**
 * Callbacks are signed as the Standard Webhooks convention says: {@code v1,} and the base64 HMAC-SHA256 of
 * {@code id.timestamp.body}, keyed with the bytes the {@code whsec_} secret encodes. Checked against the convention's
 * published example and against an HMAC computed here with javax.crypto alone, so the library is not its own judge.
 */
class CallbackSignatureTest {

    /** The example the Standard Webhooks libraries test themselves with. */
    private static final String SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
    private static final String ID = "msg_p5jXN8AQM9LWM0D4loKWxJek";
    private static final long TIMESTAMP = 1614265330;
    private static final String BODY = "{\"test\": 2432232314}";

    @Test
    void signsThePublishedExampleAsTheConventionPublishesIt() {
        assertThat(CallbackSender.sign(new Webhook(SECRET), ID, TIMESTAMP, BODY))
                .isEqualTo("v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=");
    }

    @Test
    void signsWithTheDecodedKeyBytesOverIdTimestampAndBody() throws Exception {
        String body = "{\"type\":\"reminder.sent\",\"timestamp\":\"2026-01-01T00:00:00Z\",\"data\":{\"user_id\":\"ü\"}}";
        Mac hmac = Mac.getInstance("HmacSHA256");
        hmac.init(new SecretKeySpec(Base64.getDecoder().decode(SECRET.substring("whsec_".length())), "HmacSHA256"));
        String expected = "v1," + Base64.getEncoder().encodeToString(
                hmac.doFinal(("42.1767225600." + body).getBytes(StandardCharsets.UTF_8)));

        assertThat(CallbackSender.sign(new Webhook(SECRET), "42", 1767225600L, body)).isEqualTo(expected);
        assertThat(CallbackSender.sign(new Webhook(SECRET), "43", 1767225600L, body)).isNotEqualTo(expected);
    }
}
