package dev.tickler.security;

import static dev.tickler.testing.Push.message;
import static dev.tickler.testing.Push.push;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.vertx.http.runtime.security.HttpSecurityRecorder;
import io.quarkus.vertx.http.runtime.security.QuarkusHttpUser;
import io.vertx.ext.web.Router;

import dev.tickler.testing.Metrics;

/**
 * The push path skips the REST layer's per-request search for an authentication failure's URI template, and every
 * other path keeps it: a refused API call is still counted under its template, not under its raw path.
 */
@QuarkusTest
class PushPathAuthFailureTest {

    /** Just after the REST layer's pre-authentication filter: what failure handler did it leave on each path? */
    @ApplicationScoped
    static class FailureHandlerProbe {

        static final Map<String, Object> SEEN = new ConcurrentHashMap<>();

        void install(@Observes Router router) {
            router.route().order(PushPathAuthFailure.ORDER + 1).handler(context -> {
                Object handler = context.get(QuarkusHttpUser.AUTH_FAILURE_HANDLER);
                SEEN.put(context.normalizedPath(), handler == null ? "none" : handler);
                context.next();
            });
        }
    }

    @Test
    void pushPathKeepsItsOwnFailureHandlerPastTheRestFilter() {
        push(message(999_999_999L, 0)).statusCode(200);

        assertThat(FailureHandlerProbe.SEEN.get("/q/push-token-1/reminders")).isSameAs(PushPathAuthFailure.FAIL_REQUEST);
    }

    @Test
    void apiPathIsLeftToTheRestFilter() {
        given().get("/v1/reminders/424242").then().statusCode(401);

        Object handler = FailureHandlerProbe.SEEN.get("/v1/reminders/424242");
        // the REST filter ran here: it swaps the default handler for its own, which fails the request instead
        assertThat(handler).isNotNull().isNotSameAs(PushPathAuthFailure.FAIL_REQUEST)
                .isNotInstanceOf(HttpSecurityRecorder.DefaultAuthFailureHandler.class);
    }

    @Test
    void refusedApiCallIsCountedUnderItsTemplate() {
        given().get("/v1/reminders/535353").then().statusCode(401);

        String metrics = Metrics.page();
        assertThat(metrics).contains("status=\"401\",uri=\"/v1/reminders/{id").doesNotContain("/v1/reminders/535353");
    }
}
