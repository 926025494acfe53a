package dev.tickler.console;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.endsWith;

import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import jakarta.inject.Inject;

import org.htmlunit.html.HtmlPage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;

import dev.tickler.testing.MovableClock;

/**
 * Sign-in, the session cookie and its refusals (docs/contract.md#operator-console); without operator keys every product
 * key is an operator.
 */
@QuarkusTest
class ConsoleSessionTest {

    private static final Pattern FORM_TOKEN = Pattern.compile("name=\"csrf\" value=\"([^\"]+)\"");

    @TestHTTPResource("/")
    URL base;

    @Inject
    ConsoleSessions sessions;

    @Inject
    MovableClock clock;

    @AfterEach
    void resetClock() {
        clock.reset();
    }

    @ParameterizedTest
    @ValueSource(strings = { "/ops", "/ops/dead-letters", "/ops/search?q=u_1", "/ops/reminders/1", "/ops/queues",
            "/v1/../ops/queues", "/ops/./queues" })
    void everyPageWithoutASessionSendsTheBrowserToSignIn(String path) {
        given().redirects().follow(false).get(path).then()
                .statusCode(303)
                .header("Location", endsWith("/ops/sign-in"));
    }

    @Test
    void aKeySignsInAndTheCookieNamesItWithoutHoldingIt() {
        Response form = given().get("/ops/sign-in");
        String nonce = form.getCookie(ConsoleSessions.SIGN_IN_COOKIE);

        Response signedIn = given().redirects().follow(false).cookie(ConsoleSessions.SIGN_IN_COOKIE, nonce)
                .formParam("key", "test-key-1").formParam("csrf", formToken(form.asString()))
                .post("/ops/sign-in");

        assertThat(signedIn.statusCode()).isEqualTo(303);
        assertThat(signedIn.header("Location")).endsWith("/ops");
        String cookie = signedIn.headers().getValues("Set-Cookie").stream()
                .filter(header -> header.startsWith(ConsoleSessions.SESSION_COOKIE + "=")).findFirst().orElseThrow();
        assertThat(cookie).contains("HttpOnly").containsIgnoringCase("SameSite=Strict").contains("Path=/ops")
                .contains("Max-Age=28800").doesNotContain("Secure").doesNotContain("test-key-1");
        String token = signedIn.getCookie(ConsoleSessions.SESSION_COOKIE);
        assertThat(sessions.verify(token)).hasValueSatisfying(session -> assertThat(session.operator())
                .isEqualTo("key-1"));
    }

    @Test
    void behindAnHttpsProxyTheCookieIsSecure() {
        Response form = given().header("X-Forwarded-Proto", "https").get("/ops/sign-in");
        assertThat(form.header("Set-Cookie")).contains("Secure");

        Response signedIn = given().redirects().follow(false).header("X-Forwarded-Proto", "https")
                .cookie(ConsoleSessions.SIGN_IN_COOKIE, form.getCookie(ConsoleSessions.SIGN_IN_COOKIE))
                .formParam("key", "test-key-1").formParam("csrf", formToken(form.asString()))
                .post("/ops/sign-in");

        assertThat(signedIn.headers().getValues("Set-Cookie")).isNotEmpty()
                .allSatisfy(cookie -> assertThat(cookie).contains("Secure"));
    }

    @Test
    void signingInThroughTheFormShowsTheOverview() {
        try (ConsoleBrowser browser = new ConsoleBrowser(base)) {
            HtmlPage overview = browser.signIn("test-key-2");

            assertThat(overview.getWebResponse().getStatusCode()).isEqualTo(200);
            assertThat(overview.getTitleText()).startsWith("Overview");
            assertThat(overview.getHtmlElementById("operator").asNormalizedText()).isEqualTo("key-2");
            assertThat(overview.getElementsByTagName("svg")).hasSize(2);
        }
    }

    @Test
    void anUnknownKeyIsRefusedAndOpensNoSession() {
        try (ConsoleBrowser browser = new ConsoleBrowser(base)) {
            HtmlPage refused = browser.signIn("not-a-key");

            assertThat(refused.getWebResponse().getStatusCode()).isEqualTo(401);
            assertThat(refused.getHtmlElementById("message").asNormalizedText()).isEqualTo("That key is not known.");
            assertThat(browser.client().getCookieManager().getCookie(ConsoleSessions.SESSION_COOKIE)).isNull();
            assertThat(browser.open("/ops").getTitleText()).startsWith("Sign in");
        }
    }

    @Test
    void aSignInFormWithoutItsTokenIsRefused() {
        Response form = given().get("/ops/sign-in");

        given().redirects().follow(false).cookie(ConsoleSessions.SIGN_IN_COOKIE,
                        form.getCookie(ConsoleSessions.SIGN_IN_COOKIE))
                .formParam("key", "test-key-1").formParam("csrf", "forged")
                .post("/ops/sign-in").then()
                .statusCode(403);
    }

    @Test
    void anExpiredSessionIsRefused() {
        String expired = sessions.issue("key-1", Instant.now().minus(sessions.lifetime()).minus(Duration.ofMinutes(1)))
                .token();

        given().redirects().follow(false).cookie(ConsoleSessions.SESSION_COOKIE, expired).get("/ops").then()
                .statusCode(303).header("Location", endsWith("/ops/sign-in"));
    }

    @Test
    void aSessionEndsALifetimeAfterItsSignIn() {
        String session = signIn("test-key-1");
        given().redirects().follow(false).cookie(ConsoleSessions.SESSION_COOKIE, session).get("/ops").then()
                .statusCode(200);

        clock.moveBy(sessions.lifetime());

        given().redirects().follow(false).cookie(ConsoleSessions.SESSION_COOKIE, session).get("/ops").then()
                .statusCode(303).header("Location", endsWith("/ops/sign-in"));
    }

    @Test
    void aForgedSessionIsRefused() {
        String genuine = sessions.open("key-1").token();
        String[] parts = genuine.split("\\.");
        String otherName = Base64.getUrlEncoder().withoutPadding()
                .encodeToString("key-2".getBytes(StandardCharsets.UTF_8));
        String laterExpiry = String.valueOf(Long.parseLong(parts[3]) + 3600);
        for (String forged : List.of(String.join(".", parts[0], otherName, parts[2], parts[3], parts[4], parts[5]),
                String.join(".", parts[0], parts[1], parts[2], laterExpiry, parts[4], parts[5]),
                // the format before the key digest: version, name, expiry, signature
                String.join(".", "v1", parts[1], laterExpiry, parts[5]), "test-key-1", "v2.a.b.c.d.e")) {
            given().redirects().follow(false).cookie(ConsoleSessions.SESSION_COOKIE, forged).get("/ops").then()
                    .statusCode(303);
        }
        given().redirects().follow(false).cookie(ConsoleSessions.SESSION_COOKIE, genuine).get("/ops").then()
                .statusCode(200);
    }

    @Test
    void signingOutEndsTheSessionInThisBrowser() {
        try (ConsoleBrowser browser = new ConsoleBrowser(base)) {
            HtmlPage overview = browser.signIn("test-key-1");
            HtmlPage signIn;
            try {
                signIn = overview.<org.htmlunit.html.HtmlForm>getFirstByXPath("//form[@action='/ops/sign-out']")
                        .<org.htmlunit.html.HtmlButton>getFirstByXPath(".//button").click();
            } catch (java.io.IOException e) {
                throw new IllegalStateException(e);
            }

            assertThat(signIn.getTitleText()).startsWith("Sign in");
            assertThat(browser.open("/ops").getTitleText()).startsWith("Sign in");
        }
    }

    @Test
    void signingOutClearsTheCookieUnderTheSameAttributes() {
        String session = sessions.open("key-1").token();
        String token = sessions.formToken(sessions.verify(session).orElseThrow());

        Response signedOut = given().redirects().follow(false).cookie(ConsoleSessions.SESSION_COOKIE, session)
                .formParam("csrf", token).post("/ops/sign-out");

        assertThat(signedOut.statusCode()).isEqualTo(303);
        assertThat(signedOut.header("Location")).endsWith("/ops/sign-in");
        assertThat(signedOut.headers().getValues("Set-Cookie")).singleElement().satisfies(cookie -> assertThat(cookie)
                .startsWith(ConsoleSessions.SESSION_COOKIE + "=;").contains("Max-Age=0").contains("Path=/ops")
                .contains("HttpOnly").containsIgnoringCase("SameSite=Strict"));
    }

    /** Signs in through the form as a browser would, and answers the session cookie's value. */
    private static String signIn(String key) {
        Response form = given().get("/ops/sign-in");
        Response signedIn = given().redirects().follow(false)
                .cookie(ConsoleSessions.SIGN_IN_COOKIE, form.getCookie(ConsoleSessions.SIGN_IN_COOKIE))
                .formParam("key", key).formParam("csrf", formToken(form.asString())).post("/ops/sign-in");
        assertThat(signedIn.statusCode()).isEqualTo(303);
        return signedIn.getCookie(ConsoleSessions.SESSION_COOKIE);
    }

    static String formToken(String html) {
        Matcher matcher = FORM_TOKEN.matcher(html);
        assertThat(matcher.find()).as("a form token in the page").isTrue();
        return matcher.group(1);
    }
}
