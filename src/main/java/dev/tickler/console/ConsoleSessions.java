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
 * Console sessions as signed tokens (docs/contract.md#operator-console):
 * {@code v2.<key name>.<signed in>.<expiry>.<key digest>.<HMAC-SHA256>}, so any instance with the same
 * {@code tickler.console.secret} accepts them and none keeps state. The token names the key and carries a digest of
 * its secret (an HMAC under the console secret, so the cookie tells nothing about the key), never the secret: a
 * session ends when its key's secret changes. It holds until its expiry, and never past sign-in plus
 * {@code tickler.console.session} as configured now, whatever expiry it claims, so even the console secret alone
 * cannot make a session that outlives the rules. Form tokens against cross-site requests are derived from the session
 * token, so they are bound to it.
 */
@Singleton
public class ConsoleSessions {

    public static final String SESSION_COOKIE = "tickler_console";
    /** Holds the nonce the sign-in form's token is derived from, before there is a session to bind it to. */
    public static final String SIGN_IN_COOKIE = "tickler_console_sign_in";

    private static final String VERSION = "v2";
    /** How far ahead of this instance's clock another instance's sign-in may lie: clocks of a fleet differ a little. */
    private static final Duration CLOCK_SKEW = Duration.ofMinutes(1);
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

    /** A session for the key of this name, signed in now; the key must exist. */
    public Session open(String operator) {
        return issue(operator, clock.instant());
    }

    /** A session for the key of this name, signed in at the given instant and ending a lifetime later. */
    Session issue(String operator, Instant signedInAt) {
        Instant signedIn = signedInAt.truncatedTo(ChronoUnit.SECONDS);
        Instant expiresAt = signedIn.plus(lifetime);
        String keyDigest = keyDigest(operator).orElseThrow(() -> new IllegalArgumentException("no key of that name"));
        String payload = VERSION + "." + BASE64.encodeToString(operator.getBytes(StandardCharsets.UTF_8)) + "."
                + signedIn.getEpochSecond() + "." + expiresAt.getEpochSecond() + "." + keyDigest;
        return new Session(operator, expiresAt, payload + "." + sign(payload));
    }

    /**
     * The session this token stands for: signed by this secret; signed in at most a lifetime ago, neither expired nor
     * claiming an expiry beyond that lifetime; and naming a key that is still an operator key with the secret it signed
     * in with (a key removed from the configuration, or given a new secret, ends its sessions).
     */
    public Optional<Session> verify(String token) {
        if (token == null) {
            return Optional.empty();
        }
        String[] parts = token.split("\\.", -1);
        if (parts.length != 6 || !VERSION.equals(parts[0])) {
            return Optional.empty();
        }
        String payload = String.join(".", parts[0], parts[1], parts[2], parts[3], parts[4]);
        if (!equalInConstantTime(sign(payload), parts[5])) {
            return Optional.empty();
        }
        try {
            String operator = new String(BASE64_DECODER.decode(parts[1]), StandardCharsets.UTF_8);
            Instant signedInAt = Instant.ofEpochSecond(Long.parseLong(parts[2]));
            Instant expiresAt = Instant.ofEpochSecond(Long.parseLong(parts[3]));
            Instant now = clock.instant();
            boolean current = now.isBefore(expiresAt) && !expiresAt.isAfter(signedInAt.plus(lifetime))
                    && !signedInAt.isAfter(now.plus(CLOCK_SKEW));
            boolean sameSecret = keyDigest(operator).map(digest -> equalInConstantTime(digest, parts[4]))
                    .orElse(false);
            if (!current || !sameSecret || !isOperator(operator)) {
                return Optional.empty();
            }
            return Optional.of(new Session(operator, expiresAt, token));
        } catch (IllegalArgumentException | DateTimeException | ArithmeticException malformed) {
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

    /** The digest of the named key's secret that its sessions carry, keyed with the console secret. */
    private Optional<String> keyDigest(String keyName) {
        return keys.secretDigest(keyName).map(digest -> sign("key." + BASE64.encodeToString(digest)));
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
