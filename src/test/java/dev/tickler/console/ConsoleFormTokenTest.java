package dev.tickler.console;

import static dev.tickler.testing.Api.newUser;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;

import dev.tickler.testing.Api;
import dev.tickler.testing.Database;

/**
 * Every console form that changes something carries a token bound to the session (the sign-in form: to its nonce
 * cookie). Posted without one, with a wrong one, or with another session's, it is refused with an HTML page and
 * changes nothing.
 */
@QuarkusTest
class ConsoleFormTokenTest {

    @Inject
    ConsoleSessions sessions;

    @Inject
    Database database;

    /** The token a forged form might carry. */
    enum Offered {
        NONE, EMPTY, WRONG, ANOTHER_SESSIONS
    }

    @ParameterizedTest
    @EnumSource(Offered.class)
    void everyChangingFormIsRefusedWithoutItsSessionsTokenAndChangesNothing(Offered offered) {
        String user = newUser();
        long first = deadLetter(user);
        long second = deadLetter(user);
        String session = sessions.open("key-1").token();
        String token = token(offered);

        List<Response> answers = List.of(
                post(session, token, "/ops/reminders/" + first + "/redrive", Map.of()),
                post(session, token, "/ops/dead-letters/confirm", Map.of("scope", "matching", "user_id", user)),
                post(session, token, "/ops/dead-letters/redrive", Map.of("scope", "selected", "id", second)),
                post(session, token, "/ops/dead-letters/redrive", Map.of("scope", "matching", "user_id", user)),
                post(session, token, "/ops/sign-out", Map.of()));

        assertThat(answers).allSatisfy(answer -> {
            assertThat(answer.statusCode()).isEqualTo(403);
            assertThat(answer.contentType()).startsWith("text/html");
            assertThat(answer.asString()).contains("Nothing was changed.");
            assertThat(answer.headers().getValues("Set-Cookie")).isEmpty();
        });
        assertThat(List.of(first, second)).allSatisfy(id -> {
            assertThat(database.text("select state from reminders where id = $1", id)).isEqualTo("failed");
            assertThat(Api.events(id)).extracting(event -> event.get("type")).doesNotContain("redriven");
        });
        given().redirects().follow(false).cookie(ConsoleSessions.SESSION_COOKIE, session).get("/ops").then()
                .statusCode(200);
    }

    @Test
    void theSessionsOwnTokenIsAccepted() {
        String user = newUser();
        long id = deadLetter(user);
        String session = sessions.open("key-1").token();
        String token = sessions.formToken(sessions.verify(session).orElseThrow());

        Response answer = post(session, token, "/ops/dead-letters/redrive", Map.of("scope", "selected", "id", id));

        assertThat(answer.statusCode()).isEqualTo(303);
        assertThat(database.text("select state from reminders where id = $1", id)).isEqualTo("handed_off");
    }

    @ParameterizedTest
    @EnumSource(Offered.class)
    void aSignInFormWithoutItsOwnTokenOpensNoSession(Offered offered) {
        Response form = given().get("/ops/sign-in");
        String token = offered == Offered.ANOTHER_SESSIONS
                ? ConsoleSessionTest.formToken(given().get("/ops/sign-in").asString())
                : token(offered);

        var request = given().redirects().follow(false)
                .cookie(ConsoleSessions.SIGN_IN_COOKIE, form.getCookie(ConsoleSessions.SIGN_IN_COOKIE))
                .formParam("key", "test-key-1");
        if (token != null) {
            request.formParam("csrf", token);
        }
        Response answer = request.post("/ops/sign-in");

        assertThat(answer.statusCode()).isEqualTo(403);
        assertThat(answer.contentType()).startsWith("text/html");
        assertThat(answer.asString()).contains("Open the sign-in page again.");
        assertThat(answer.getCookie(ConsoleSessions.SESSION_COOKIE)).isNull();
    }

    @Test
    void aSignInFormWithoutItsNonceCookieOpensNoSession() {
        String token = ConsoleSessionTest.formToken(given().get("/ops/sign-in").asString());

        Response answer = given().redirects().follow(false).formParam("key", "test-key-1").formParam("csrf", token)
                .post("/ops/sign-in");

        assertThat(answer.statusCode()).isEqualTo(403);
        assertThat(answer.getCookie(ConsoleSessions.SESSION_COOKIE)).isNull();
    }

    /** The console's tokens are checked by its own resources only: a form-typed call elsewhere is not theirs to judge. */
    @Test
    void theApiAndThePushPathNeverLookForAFormToken() {
        long cancelled = Api.createdId(Api.reminderAt(Instant.now().plus(Duration.ofDays(30))));
        long pushed = Api.createdId(Api.reminderAt(Instant.now().plus(Duration.ofDays(30))));

        Response cancel = given().auth().oauth2(Api.API_KEY).contentType("application/x-www-form-urlencoded")
                .body("").delete("/v1/reminders/" + cancelled);
        Response push = given().contentType("application/x-www-form-urlencoded")
                .body("{\"reminder_id\": " + pushed + ", \"version\": 0}").post("/q/push-token-1/reminders");

        assertThat(cancel.statusCode()).isEqualTo(200);
        assertThat(cancel.jsonPath().getString("state")).isEqualTo("cancelled");
        assertThat(push.statusCode()).isEqualTo(200);
        assertThat(List.of(cancel, push)).allSatisfy(answer -> assertThat(answer.headers().getValues("Set-Cookie"))
                .isEmpty());
    }

    private static Response post(String session, String token, String path, Map<String, Object> fields) {
        RequestSpecification request = given().redirects().follow(false)
                .cookie(ConsoleSessions.SESSION_COOKIE, session);
        if (token != null) {
            request.formParam("csrf", token);
        }
        fields.forEach(request::formParam);
        return request.post(path);
    }

    private String token(Offered offered) {
        return switch (offered) {
            case NONE -> null;
            case EMPTY -> "";
            case WRONG -> "not-a-token";
            case ANOTHER_SESSIONS -> sessions.formToken(sessions.open("key-2"));
        };
    }

    private long deadLetter(String user) {
        return database.insertReminder(user, "failed", Instant.now().plus(Duration.ofHours(1)),
                "last_error, attempts", "HTTP 400", 1);
    }
}
