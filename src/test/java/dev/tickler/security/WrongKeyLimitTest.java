package dev.tickler.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import jakarta.inject.Inject;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.RestAssured;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;

import dev.tickler.console.ConsoleSessions;
import dev.tickler.testing.Api;
import dev.tickler.testing.MovableClock;
import dev.tickler.testing.OwnApplication;

/**
 * Wrong keys per client address (docs/operating.md, "Wrong keys"): ten a minute, bearer keys and console sign-ins
 * together, then 429 with Retry-After for every key from that address, and only that address. Each test sends from
 * loopback addresses of its own (every 127.0.0.0/8 address is this machine), so the addresses are real connections'
 * peers; 127.0.0.1 stands for a proxy in front, which is trusted to name the client in X-Forwarded-For.
 */
@QuarkusTest
@TestProfile(WrongKeyLimitTest.TenAMinute.class)
class WrongKeyLimitTest {

    private static final Pattern FORM_TOKEN = Pattern.compile("name=\"csrf\" value=\"([^\"]+)\"");
    private static final String PROXY = "127.0.0.1";

    /** The default limit (the test profile raises it for the shared application) and a proxy on 127.0.0.1. */
    public static class TenAMinute implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return OwnApplication.withoutApiDocument(Map.of(
                    "tickler.api.wrong-keys-per-minute", "10",
                    "tickler.api.trusted-proxies", PROXY + "/32"));
        }
    }

    /** One answer, read whole. */
    record Answer(int status, MultiMap headers, String body) {
    }

    @Inject
    Vertx vertx;

    @Inject
    MovableClock clock;

    @AfterEach
    void resetClock() {
        clock.reset();
    }

    @Test
    void tenWrongKeysAMinuteThenEveryKeyFromThatAddressIsAnswered429() {
        String guesser = "127.0.0.2";
        for (int i = 0; i < 10; i++) {
            assertThat(keyed(guesser, "wrong-key-" + i).status()).isEqualTo(401);
        }

        Answer wrong = keyed(guesser, "wrong-key-10");
        Answer right = keyed(guesser, Api.API_KEY);

        for (Answer answer : new Answer[] { wrong, right }) {
            assertThat(answer.status()).isEqualTo(429);
            assertThat(answer.headers().get("Content-Type")).startsWith("application/problem+json");
            assertThat(answer.body()).contains("\"type\":\"urn:tickler:problem:too-many-requests\"")
                    .contains("\"status\":429");
            assertThat(Long.parseLong(answer.headers().get("Retry-After"))).isBetween(1L, 60L);
        }
        // a call without a key guesses nothing, and is answered as before
        assertThat(send(guesser, HttpMethod.GET, "/v1/reminders/999999999", Map.of(), null).status()).isEqualTo(401);
    }

    @Test
    void aGoodKeyFromAnotherAddressIsNotBlocked() {
        block("127.0.0.3");

        assertThat(keyed("127.0.0.4", Api.API_KEY).status()).isEqualTo(404);
        assertThat(keyed("127.0.0.4", "wrong-key").status()).isEqualTo(401);
        assertThat(keyed("127.0.0.3", Api.API_KEY).status()).isEqualTo(429);
    }

    @Test
    void theLimitForgetsAfterItsWindow() {
        String guesser = "127.0.0.5";
        assertThat(keyed(guesser, "wrong-key-0").status()).isEqualTo(401);
        clock.moveBy(Duration.ofSeconds(30));
        for (int i = 1; i < 10; i++) {
            assertThat(keyed(guesser, "wrong-key-" + i).status()).isEqualTo(401);
        }
        Answer blocked = keyed(guesser, Api.API_KEY);
        assertThat(blocked.status()).isEqualTo(429);
        // until the first wrong key is a minute old
        assertThat(Long.parseLong(blocked.headers().get("Retry-After"))).isBetween(25L, 30L);

        clock.moveBy(Duration.ofSeconds(31));

        // the first is forgotten, the nine after it are not: one more wrong key, and the address waits again
        assertThat(keyed(guesser, Api.API_KEY).status()).isEqualTo(404);
        assertThat(keyed(guesser, "wrong-key-10").status()).isEqualTo(401);
        assertThat(keyed(guesser, Api.API_KEY).status()).isEqualTo(429);
        clock.moveBy(Duration.ofMinutes(1));
        assertThat(keyed(guesser, Api.API_KEY).status()).isEqualTo(404);
    }

    @Test
    void wrongSignInsCountWithWrongBearerKeysAndAreRefusedWithAPage() {
        String guesser = "127.0.0.6";
        for (int i = 0; i < 5; i++) {
            assertThat(keyed(guesser, "wrong-key-" + i).status()).isEqualTo(401);
            assertThat(signIn(guesser, "wrong-key-" + i).status()).isEqualTo(401);
        }

        Answer refused = signIn(guesser, Api.API_KEY);

        assertThat(refused.status()).isEqualTo(429);
        assertThat(refused.headers().get("Content-Type")).startsWith("text/html");
        assertThat(refused.body()).contains("Too many wrong keys were sent from your address within a minute.");
        assertThat(Long.parseLong(refused.headers().get("Retry-After"))).isBetween(1L, 60L);
        assertThat(refused.headers().getAll("Set-Cookie")).noneMatch(cookie -> cookie.startsWith(
                ConsoleSessions.SESSION_COOKIE + "="));
        assertThat(keyed(guesser, Api.API_KEY).status()).isEqualTo(429);
        assertThat(signIn("127.0.0.7", Api.API_KEY).status()).as("another address signs in").isEqualTo(303);
    }

    @Test
    void behindATrustedProxyTheForwardedClientIsCountedNotTheProxy() {
        Map<String, String> guesser = Map.of("X-Forwarded-For", "198.51.100.7");
        for (int i = 0; i < 10; i++) {
            assertThat(keyed(PROXY, "wrong-key-" + i, guesser).status()).isEqualTo(401);
        }

        assertThat(keyed(PROXY, Api.API_KEY, guesser).status()).isEqualTo(429);
        // what the client wrote itself is left of what the proxy appended, and does not count
        assertThat(keyed(PROXY, Api.API_KEY, Map.of("X-Forwarded-For", "203.0.113.1, 198.51.100.7")).status())
                .isEqualTo(429);
        assertThat(keyed(PROXY, Api.API_KEY, Map.of("X-Forwarded-For", "198.51.100.8")).status()).isEqualTo(404);
        assertThat(keyed(PROXY, Api.API_KEY).status()).as("the proxy's own calls").isEqualTo(404);
    }

    @Test
    void fromAnUntrustedPeerTheForwardedHeaderIsIgnored() {
        String guesser = "127.0.0.8";
        for (int i = 0; i < 10; i++) {
            assertThat(keyed(guesser, "wrong-key-" + i, Map.of("X-Forwarded-For", "198.51.100." + (20 + i)))
                    .status()).isEqualTo(401);
        }

        assertThat(keyed(guesser, Api.API_KEY, Map.of("X-Forwarded-For", "198.51.100.99")).status()).isEqualTo(429);
    }

    /** Ten wrong keys from this address. */
    private void block(String address) {
        for (int i = 0; i < 10; i++) {
            assertThat(keyed(address, "wrong-key-" + i).status()).isEqualTo(401);
        }
    }

    private Answer keyed(String from, String key) {
        return keyed(from, key, Map.of());
    }

    private Answer keyed(String from, String key, Map<String, String> headers) {
        Map<String, String> all = new LinkedHashMap<>(headers);
        all.put("Authorization", "Bearer " + key);
        return send(from, HttpMethod.GET, "/v1/reminders/999999999", all, null);
    }

    /** The console's sign-in as a browser sends it: the form first, for its nonce cookie and token. */
    private Answer signIn(String from, String key) {
        Answer form = send(from, HttpMethod.GET, "/ops/sign-in", Map.of(), null);
        String nonce = form.headers().getAll("Set-Cookie").stream()
                .filter(cookie -> cookie.startsWith(ConsoleSessions.SIGN_IN_COOKIE + "="))
                .map(cookie -> cookie.substring(0, cookie.indexOf(';'))).findFirst().orElseThrow();
        Matcher token = FORM_TOKEN.matcher(form.body());
        assertThat(token.find()).isTrue();
        return send(from, HttpMethod.POST, "/ops/sign-in", Map.of("Cookie", nonce,
                "Content-Type", "application/x-www-form-urlencoded"),
                "key=" + key + "&csrf=" + token.group(1));
    }

    /** One request on a connection of its own, from the given loopback address. */
    private Answer send(String from, HttpMethod method, String path, Map<String, String> headers, String body) {
        HttpClient client = vertx.createHttpClient(new HttpClientOptions().setLocalAddress(from));
        try {
            RequestOptions request = new RequestOptions().setMethod(method).setHost("127.0.0.1")
                    .setPort(RestAssured.port).setURI(path);
            headers.forEach(request::putHeader);
            return client.request(request)
                    .compose(sent -> body == null ? sent.send() : sent.send(Buffer.buffer(body)))
                    .compose(response -> response.body().map(read -> new Answer(response.statusCode(),
                            response.headers(), read.toString())))
                    .toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("no answer to " + method + " " + path + " from " + from, e);
        } finally {
            client.close();
        }
    }
}
