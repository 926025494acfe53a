package dev.tickler.delivery;

import static dev.tickler.testing.Api.createdId;
import static dev.tickler.testing.Api.publishedFor;
import static dev.tickler.testing.Api.pushReminderAt;
import static dev.tickler.testing.NotifierResource.notifier;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;

import dev.tickler.emulator.PublishedMessage;
import dev.tickler.testing.Api;
import dev.tickler.testing.InfraiEmulatorResource;
import dev.tickler.testing.NotifierStandIn.Received;
import dev.tickler.testing.NotifierStandIn.Reply;
import dev.tickler.testing.RecordingPause;

/**
 * The waits between a reminder's notifier attempts, as the application chose them: inline pauses as recorded, and
 * longer ones as the delays of the messages it put back on the queue, never as gaps measured between requests.
 * Retry gaps are shortened by the test profile (base 0.2 s, retries over 0.5 s go back to the queue).
 */
@QuarkusTest
class RetryBackoffTest {

    private static final Duration DEADLINE = Duration.ofSeconds(20);

    @Inject
    RecordingPause pause;

    @Test
    void rateLimitWaitsForRetryAfter() {
        Map<String, Object> body = pushReminderAt(Instant.now());
        String user = (String) body.get("user_id");
        notifier().script(user, Reply.rateLimited(1));
        long id = createdId(body);

        awaitState(id, "sent");

        List<Received> requests = notifier().receivedFor(user);
        assertThat(requests).hasSize(2);
        assertThat(requests).extracting(Received::idempotencyKey).containsOnly("reminder:" + id + ":0");
        // the notifier's 1 s is longer than the inline maximum: no pause in memory, the retry waits on the queue
        assertThat(waitsBetween(requests)).containsExactly(List.of());
        assertThat(publishedFor(id, InfraiEmulatorResource.PUSHED_QUEUE))
                .extracting(PublishedMessage::idempotencyKey, PublishedMessage::delaySeconds)
                .containsExactly(tuple("reminder:" + id + ":0:0", 0L), tuple("reminder:" + id + ":0:1", 1L));
        Api.get(id).body("attempts", equalTo(2));
    }

    @Test
    void serverErrorsAreRetriedWithGrowingGapsThenFail() {
        Map<String, Object> body = pushReminderAt(Instant.now());
        String user = (String) body.get("user_id");
        notifier().script(user, Reply.status(503), Reply.status(500), Reply.status(502), Reply.status(408),
                Reply.status(503));
        long id = createdId(body);

        awaitState(id, "failed");

        List<Received> requests = notifier().receivedFor(user);
        assertThat(requests).hasSize(5);
        assertThat(requests).extracting(Received::idempotencyKey).containsOnly("reminder:" + id + ":0");
        // backoff 0.2 × 2^(attempts − 1) s in the test profile: 0.2 and 0.4 s are waited inline; 0.8 and 1.6 s are
        // over the inline maximum of 0.5 s and go back to the queue, rounded up to whole seconds
        assertThat(waitsBetween(requests)).containsExactly(
                List.of(Duration.ofMillis(200)),
                List.of(Duration.ofMillis(400)),
                List.of(),
                List.of());
        assertThat(publishedFor(id, InfraiEmulatorResource.PUSHED_QUEUE))
                .extracting(PublishedMessage::idempotencyKey, PublishedMessage::delaySeconds)
                .containsExactly(
                        tuple("reminder:" + id + ":0:0", 0L),
                        tuple("reminder:" + id + ":0:1", 1L),
                        tuple("reminder:" + id + ":0:2", 2L));
        Api.get(id)
                .body("attempts", equalTo(5))
                .body("last_error", equalTo("HTTP 503 (after 5 attempts)"))
                .body("sent_at", nullValue());
    }

    /**
     * The pauses the application asked for between each two consecutive notifier requests of one reminder: an inline
     * retry's wait is asked for after its request was answered and before the next request is made.
     */
    private List<List<Duration>> waitsBetween(List<Received> requests) {
        List<List<Duration>> waits = new ArrayList<>();
        for (int i = 1; i < requests.size(); i++) {
            waits.add(pause.between(requests.get(i - 1).at(), requests.get(i).at()));
        }
        return waits;
    }

    private static void awaitState(long id, String state) {
        await().atMost(DEADLINE).untilAsserted(() -> Api.get(id).body("state", equalTo(state)));
    }
}
