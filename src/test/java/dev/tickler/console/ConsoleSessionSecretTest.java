package dev.tickler.console;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import org.junit.jupiter.api.Test;

import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfigBuilder;

import dev.tickler.config.TicklerConfig;
import dev.tickler.security.ApiKeys;
import dev.tickler.testing.MovableClock;

/**
 * What a console session is bound to, across instances that share {@code tickler.console.secret}: the secret of the
 * key it signed in with, and a lifetime counted from its sign-in that no token can stretch, not even one made with the
 * console secret itself. Each instance here is built as the application builds it, from its configuration.
 */
class ConsoleSessionSecretTest {

    private static final String CONSOLE_SECRET = "console-secret-for-this-test-7f3a9c";
    private static final String OPS_SECRET = "ops-secret-for-this-test-b81d42";
    private static final String ROTATED_OPS_SECRET = "ops-secret-rotated-in-this-test-5c0e";
    private static final Base64.Encoder BASE64 = Base64.getUrlEncoder().withoutPadding();

    private final MovableClock clock = new MovableClock();

    @Test
    void anotherInstanceWithTheSameSecretsAcceptsTheSession() {
        String token = instance(OPS_SECRET).open("ops").token();

        assertThat(instance(OPS_SECRET).verify(token)).hasValueSatisfying(session -> assertThat(session.operator())
                .isEqualTo("ops"));
    }

    @Test
    void rotatingTheKeysSecretEndsTheSessionsItOpened() {
        String token = instance(OPS_SECRET).open("ops").token();

        ConsoleSessions afterRotation = instance(ROTATED_OPS_SECRET);

        assertThat(afterRotation.verify(token)).isEmpty();
        assertThat(afterRotation.verify(afterRotation.open("ops").token())).isPresent();
    }

    @Test
    void theSessionCarriesADigestOfTheKeysSecretNeverTheSecret() {
        String token = instance(OPS_SECRET).open("ops").token();

        assertThat(token).doesNotContain(OPS_SECRET).doesNotContain(BASE64.encodeToString(sha256(OPS_SECRET)));
        assertThat(token.split("\\.")).hasSize(6);
    }

    @Test
    void anExpiryBeyondSignInPlusTheLifetimeIsRefusedEvenWhenSignedWithTheConsoleSecret() {
        ConsoleSessions sessions = instance(OPS_SECRET);
        long now = clock.instant().getEpochSecond();
        long yearsAhead = clock.instant().plus(Duration.ofDays(3650)).getEpochSecond();
        long lifetime = sessions.lifetime().toSeconds();

        // what the cookie format before this one let anyone with the console secret write: no sign-in, any expiry
        assertThat(sessions.verify(forged("v1." + name("ops") + "." + yearsAhead))).isEmpty();
        // a sign-in now with an expiry ten years on
        assertThat(sessions.verify(forged(payload(now, yearsAhead, OPS_SECRET)))).isEmpty();
        // a sign-in in the future, so that a lifetime after it lies far ahead
        assertThat(sessions.verify(forged(payload(yearsAhead - lifetime, yearsAhead, OPS_SECRET)))).isEmpty();
        // the same forgery within the rules is accepted: the refusals above are for the expiry, not the forging
        assertThat(sessions.verify(forged(payload(now, now + lifetime, OPS_SECRET)))).isPresent();
    }

    @Test
    void aSessionEndsALifetimeAfterSignInAsConfiguredNow() {
        String token = instance(OPS_SECRET).open("ops").token();
        clock.moveBy(Duration.ofHours(2));

        assertThat(instance(OPS_SECRET).verify(token)).isPresent();
        assertThat(instance(OPS_SECRET, Duration.ofHours(1)).verify(token)).as("after the lifetime was shortened")
                .isEmpty();
    }

    @Test
    void aSessionExpiresNoLaterThanALifetimeAfterSignIn() {
        ConsoleSessions sessions = instance(OPS_SECRET);
        Instant signIn = clock.instant();
        String token = sessions.open("ops").token();
        Instant expiresAt = sessions.verify(token).orElseThrow().expiresAt();

        assertThat(expiresAt).isBeforeOrEqualTo(signIn.plus(sessions.lifetime()));
        clock.moveBy(Duration.between(clock.instant(), expiresAt));
        assertThat(sessions.verify(token)).isEmpty();
    }

    private ConsoleSessions instance(String opsSecret) {
        return instance(opsSecret, Duration.ofHours(8));
    }

    private ConsoleSessions instance(String opsSecret, Duration lifetime) {
        Map<String, String> properties = new HashMap<>();
        properties.put("tickler.api.keys", "checkout=checkout-secret-for-this-test-0a9f");
        properties.put("tickler.api.operator-keys", "ops=" + opsSecret);
        properties.put("tickler.console.secret", CONSOLE_SECRET);
        properties.put("tickler.console.session", lifetime.toString());
        TicklerConfig config = new SmallRyeConfigBuilder().withMapping(TicklerConfig.class)
                .withSources(new PropertiesConfigSource(properties, "this test", 100)).build()
                .getConfigMapping(TicklerConfig.class);
        return new ConsoleSessions(config, new ApiKeys(config), clock);
    }

    /** A token in the current format, written here from the format alone, as someone with the secrets could. */
    private static String payload(long signedIn, long expires, String keySecret) {
        String keyDigest = hmac("key." + BASE64.encodeToString(sha256(keySecret)));
        return "v2." + name("ops") + "." + signedIn + "." + expires + "." + keyDigest;
    }

    private static String forged(String payload) {
        return payload + "." + hmac(payload);
    }

    private static String name(String keyName) {
        return BASE64.encodeToString(keyName.getBytes(StandardCharsets.UTF_8));
    }

    private static String hmac(String text) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(CONSOLE_SECRET.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            return BASE64.encodeToString(mac.doFinal(text.getBytes(StandardCharsets.UTF_8)));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private static byte[] sha256(String text) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }
}
