package dev.tickler.delivery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.time.Duration;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;

import dev.tickler.testing.CapturedLogs;
import dev.tickler.testing.InfraiEmulatorResource;
import dev.tickler.testing.RawHttp;
import dev.tickler.testing.RawHttp.Departure;

/**
 * The push path carries a secret: no log line names it, not even the HTTP layer's own failure logging for
 * requests that go wrong before the receiver sees them.
 */
@QuarkusTest
class PushTokenNeverLoggedTest {

    private static final String TOKEN = InfraiEmulatorResource.PUSH_TOKEN;
    private static final String PATH = "/q/" + TOKEN + "/reminders";

    @Test
    void chunkedBodyOverTheLimitIsRefusedWithoutLoggingThePath() {
        try (CapturedLogs logs = CapturedLogs.start()) {
            String answer = RawHttp.postChunked(PATH, 300 * 1024);

            assertThat(RawHttp.status(answer)).as(answer).isEqualTo(413);
            assertNoTokenLogged(logs);
        }
    }

    @Test
    void requestWithoutHostIsAnsweredWithoutLoggingThePath() {
        try (CapturedLogs logs = CapturedLogs.start()) {
            String body = "{\"reminder_id\": 1, \"version\": 0}";
            String request = "POST " + PATH + " HTTP/1.1\r\nContent-Type: application/json\r\nContent-Length: "
                    + body.length() + "\r\n\r\n" + body;

            String answer = RawHttp.exchange(request.getBytes(StandardCharsets.US_ASCII), Departure.READ_ANSWER);

            assertThat(RawHttp.status(answer)).as(answer).isBetween(200, 499);
            assertNoTokenLogged(logs);
        }
    }

    @Test
    void resetInTheMiddleOfTheBodyLogsNoPath() {
        try (CapturedLogs logs = CapturedLogs.start()) {
            RawHttp.resetMidBody(PATH, 200_000, 50_000);
            RawHttp.resetMidBody(PATH, 2_000, 500);

            assertNoTokenLogged(logs);
        }
    }

    @Test
    void wellFormedTooLargeBodyIsRefusedWithoutLoggingThePath() {
        try (CapturedLogs logs = CapturedLogs.start()) {
            String answer = RawHttp.post(PATH, "application/json", "x".repeat(300 * 1024), Departure.READ_ANSWER);

            assertThat(RawHttp.status(answer)).as(answer).isEqualTo(413);
            assertNoTokenLogged(logs);
        }
    }

    /** Failure logging may come a moment after the answer; wait for it, then look. */
    private static void assertNoTokenLogged(CapturedLogs logs) {
        await().pollDelay(Duration.ofMillis(300)).atMost(Duration.ofSeconds(2)).until(() -> true);
        assertThat(logs.lines()).noneMatch(line -> line.contains(TOKEN));
    }
}
