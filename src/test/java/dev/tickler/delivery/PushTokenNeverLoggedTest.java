package dev.tickler.delivery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;

import dev.tickler.testing.CapturedLogs;
import dev.tickler.testing.InfraiEmulatorResource;
import dev.tickler.testing.RawHttp;

/**
 * The push path carries a secret: no log line names it, not even the HTTP layer's own failure logging for
 * requests that go wrong before the receiver sees them, and not at DEBUG either.
 */
@QuarkusTest
class PushTokenNeverLoggedTest {

    private static final String TOKEN = InfraiEmulatorResource.PUSH_TOKEN;
    private static final String PATH = "/q/" + TOKEN + "/reminders";
    private static final Duration DEADLINE = Duration.ofSeconds(10);
    /** Tickler's HTTP edge and the HTTP layers beneath it, whose failure logging an operator may turn up. */
    private static final String[] HTTP_LAYERS = { "dev.tickler.web", "io.vertx", "io.quarkus.vertx.http" };

    @Test
    void chunkedBodyOverTheLimitIsRefusedWithoutLoggingThePath() {
        try (CapturedLogs logs = CapturedLogs.withDebugOf(HTTP_LAYERS)) {
            String marker = marker();
            List<String> answers = RawHttp.exchangeInTurn(RawHttp.chunkedPostRequest(PATH, 300 * 1024),
                    RawHttp.getRequest(marker));

            assertThat(RawHttp.status(answers.get(0))).as(answers.get(0)).isEqualTo(413);
            assertNoTokenLoggedOnceDoneWith(logs, marker);
        }
    }

    @Test
    void requestWithoutHostIsAnsweredWithoutLoggingThePath() {
        try (CapturedLogs logs = CapturedLogs.withDebugOf(HTTP_LAYERS)) {
            String body = "{\"reminder_id\": 1, \"version\": 0}";
            String request = "POST " + PATH + " HTTP/1.1\r\nContent-Type: application/json\r\nContent-Length: "
                    + body.length() + "\r\n\r\n" + body;
            String marker = marker();

            List<String> answers = RawHttp.exchangeInTurn(request.getBytes(StandardCharsets.US_ASCII),
                    RawHttp.getRequest(marker));

            assertThat(RawHttp.status(answers.get(0))).as(answers.get(0)).isBetween(200, 499);
            assertNoTokenLoggedOnceDoneWith(logs, marker);
        }
    }

    @Test
    void resetInTheMiddleOfTheBodyLogsNoPath() {
        try (CapturedLogs logs = CapturedLogs.withDebugOf(HTTP_LAYERS)) {
            RawHttp.resetMidBody(PATH, 200_000, 50_000);
            awaitClosedConnectionsLogged(logs, 1);
            RawHttp.resetMidBody(PATH, 2_000, 500);
            awaitClosedConnectionsLogged(logs, 2);

            assertThat(logs.lines()).noneMatch(line -> line.contains(TOKEN));
            assertThat(logs.messages()).filteredOn(line -> line.startsWith("dev.tickler.web.HttpEdge client left "))
                    .allMatch(line -> line.contains(" /q/{token}/reminders "));
        }
    }

    @Test
    void wellFormedTooLargeBodyIsRefusedWithoutLoggingThePath() {
        try (CapturedLogs logs = CapturedLogs.withDebugOf(HTTP_LAYERS)) {
            String marker = marker();
            List<String> answers = RawHttp.exchangeInTurn(
                    RawHttp.postRequest(PATH, "application/json", "x".repeat(300 * 1024)), RawHttp.getRequest(marker));

            assertThat(RawHttp.status(answers.get(0))).as(answers.get(0)).isEqualTo(413);
            assertNoTokenLoggedOnceDoneWith(logs, marker);
        }
    }

    /** A path of no resource, asked for on the same connection after the request under test. */
    private static String marker() {
        return "/after-" + UUID.randomUUID();
    }

    /**
     * The server handles a connection's requests in turn: once the marker that followed the request under test is in the
     * access log, everything it logs for that request, an access-log line or failure logging after the answer, is
     * there too.
     */
    private static void assertNoTokenLoggedOnceDoneWith(CapturedLogs logs, String marker) {
        await().atMost(DEADLINE).until(() -> logs.lines().stream().anyMatch(line -> line.contains("GET " + marker + " ")));
        assertThat(logs.lines()).noneMatch(line -> line.contains(TOKEN));
    }

    /**
     * A reset connection gets no answer and leaves no access-log line; what the edge logs for it (at DEBUG) is the
     * failure of its request and then, last, the closed connection. Waits until the edge has logged that many closes.
     */
    private static void awaitClosedConnectionsLogged(CapturedLogs logs, int closes) {
        await().atMost(DEADLINE).until(() -> logs.messages().stream()
                .filter(line -> line.startsWith("dev.tickler.web.HttpEdge client left ")
                        && line.endsWith(" before its answer: Connection was closed"))
                .count() >= closes);
    }
}
