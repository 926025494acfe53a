package dev.tickler.console;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Base64;
import java.util.Optional;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import jakarta.inject.Singleton;

import dev.tickler.config.TicklerConfig;
import dev.tickler.security.ApiKeys;
import dev.tickler.security.Roles;

/**
 * Console sessions as signed tokens (docs/contract.md#operator-console): {@code v1.<key name>.<expiry>.<HMAC-SHA256>},
 * so any instance with the same {@code tickler.console.secret} accepts them and none keeps state. The token names the
 * key, never holds its secret. Form tokens against cross-site requests are derived from the session token, so they are
 * bound to it.
 */
@Singleton
public class ConsoleSessions {

    public static final String SESSION_COOKIE = "tickler_console";
    /** Holds the nonce the sign-in form's token is derived from, before there is a session to bind it to. */
    public static final String SIGN_IN_COOKIE = "tickler_console_sign_in";

    private static final String VERSION = "v1";
    private static final Base64.Encoder BASE64 = Base64.getUrlEncoder().withoutPadding();
    private static final Base64.Decoder BASE64_DECODER = Base64.getUrlDecoder();

    /** Who is signed in, until when. */
    public record Session(String operator, Instant expiresAt, String token) {
    }

    /** An instance, not a static: a native image must not hold a seeded generator from its build. */
    private final SecureRandom random = new SecureRandom();
    private final SecretKeySpec signingKey;
    private final Duration lifetime;
    private final ApiKeys keys;
    private final Clock clock;

    public ConsoleSessions(TicklerConfig config, ApiKeys keys, Clock clock) {
        byte[] secret = config.console().secret().filter(configured -> !configured.isBlank())
                .map(configured -> configured.getBytes(StandardCharsets.UTF_8))
                .orElseGet(() -> randomBytes(32));
        this.signingKey = new SecretKeySpec(secret, "HmacSHA256");
        this.lifetime = config.console().session();
        this.keys = keys;
        this.clock = clock;
    }

    public Duration lifetime() {
        return lifetime;
    }

    public Session open(String operator) {
        return issue(operator, clock.instant().truncatedTo(ChronoUnit.SECONDS).plus(lifetime));
    }

    /** A session for this key name that ends at the given instant, whatever the configured lifetime. */
    public Session issue(String operator, Instant expiresAt) {
        String payload = VERSION + "." + BASE64.encodeToString(operator.getBytes(StandardCharsets.UTF_8)) + "."
                + expiresAt.getEpochSecond();
        return new Session(operator, Instant.ofEpochSecond(expiresAt.getEpochSecond()),
                payload + "." + sign(payload));
    }

    /**
     * The session this token stands for: signed by this secret, not expired, and naming a key that is still an
     * operator key (a key removed from the configuration ends its sessions).
     */
    public Optional<Session> verify(String token) {
        if (token == null) {
            return Optional.empty();
        }
        String[] parts = token.split("\\.", -1);
        if (parts.length != 4 || !VERSION.equals(parts[0])) {
            return Optional.empty();
        }
        String payload = parts[0] + "." + parts[1] + "." + parts[2];
        if (!equalInConstantTime(sign(payload), parts[3])) {
            return Optional.empty();
        }
        try {
            String operator = new String(BASE64_DECODER.decode(parts[1]), StandardCharsets.UTF_8);
            Instant expiresAt = Instant.ofEpochSecond(Long.parseLong(parts[2]));
            if (!clock.instant().isBefore(expiresAt) || !isOperator(operator)) {
                return Optional.empty();
            }
            return Optional.of(new Session(operator, expiresAt, token));
        } catch (IllegalArgumentException | DateTimeException malformed) {
            return Optional.empty();
        }
    }

    /** Whether this key may use the console: an operator key, or any key while no operator keys are configured. */
    public boolean isOperator(String keyName) {
        return keys.named(keyName).map(key -> key.roles().contains(Roles.OPERATOR)).orElse(false);
    }

    /** The token every form of this session carries. */
    public String formToken(Session session) {
        return sign("form." + session.token());
    }

    public boolean formTokenMatches(Session session, String offered) {
        return offered != null && equalInConstantTime(formToken(session), offered);
    }

    public String newSignInNonce() {
        return BASE64.encodeToString(randomBytes(24));
    }

    public String signInFormToken(String nonce) {
        return sign("sign-in." + nonce);
    }

    public boolean signInFormTokenMatches(String nonce, String offered) {
        return nonce != null && offered != null && equalInConstantTime(signInFormToken(nonce), offered);
    }

    private String sign(String text) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(signingKey);
            return BASE64.encodeToString(mac.doFinal(text.getBytes(StandardCharsets.UTF_8)));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is unavailable", e);
        }
    }

    private static boolean equalInConstantTime(String expected, String offered) {
        return MessageDigest.isEqual(expected.getBytes(StandardCharsets.UTF_8), offered.getBytes(StandardCharsets.UTF_8));
    }

    private byte[] randomBytes(int count) {
        byte[] bytes = new byte[count];
        random.nextBytes(bytes);
        return bytes;
    }
}
