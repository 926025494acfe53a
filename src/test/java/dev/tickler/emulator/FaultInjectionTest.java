package dev.tickler.emulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tickler.emulator.InfraiTestClient.Reply;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class FaultInjectionTest extends EmulatorTestBase {

    @Test
    void failNextPublishesAnswersTheErrorAndCreatesNothing() {
        emulator.failNextPublishes(2, 503, "UNAVAILABLE");

        Reply first = client.publishReply(QUEUE, REMINDER, 0, "k1");
        Reply second = client.publishReply(QUEUE, REMINDER, 0, "k1");
        Reply third = client.publishReply(QUEUE, REMINDER, 0, "k1");

        for (Reply failed : new Reply[] {first, second}) {
            assertEquals(503, failed.status());
            assertEquals(false, failed.json().getBoolean("ok"));
            assertEquals("UNAVAILABLE", failed.errorCode());
        }
        assertEquals(200, third.status());
        assertEquals(1, emulator.published(QUEUE).size());
        assertEquals(3, emulator.publishRequests());
    }

    @Test
    void rateLimitNextPublishesAnswers429WithRetryAfter() {
        emulator.rateLimitNextPublishes(1, 7);

        Reply limited = client.publishReply(QUEUE, REMINDER, 0, "k1");
        Reply accepted = client.publishReply(QUEUE, REMINDER, 0, "k1");

        assertEquals(429, limited.status());
        assertEquals("RATE_LIMITED", limited.errorCode());
        assertEquals("7", limited.header("Retry-After"));
        assertEquals(200, accepted.status());
        assertEquals(1, emulator.published(QUEUE).size());
    }

    @Test
    void injectedFaultsApplyInTheOrderTheyWereAskedFor() {
        emulator.failNextPublishes(1, 503, "UNAVAILABLE");
        emulator.rateLimitNextPublishes(1, 2);

        assertEquals(503, client.publishReply(QUEUE, REMINDER, 0, "k1").status());
        assertEquals(429, client.publishReply(QUEUE, REMINDER, 0, "k1").status());
        assertEquals(200, client.publishReply(QUEUE, REMINDER, 0, "k1").status());
    }

    @Test
    void publishLatencyDelaysTheAnswer() {
        Duration latency = Duration.ofMillis(400);
        emulator.publishLatency(latency);

        long start = System.nanoTime();
        Reply reply = client.publishReply(QUEUE, REMINDER, 0, "k1");
        long elapsedMillis = Duration.ofNanos(System.nanoTime() - start).toMillis();

        assertEquals(200, reply.status());
        assertTrue(elapsedMillis >= latency.toMillis(), "answered after " + elapsedMillis + " ms");
    }

    @Test
    void publishRequestsCountsDeduplicatedRefusedAndFaultedCalls() {
        client.publish(QUEUE, REMINDER, 0, "k1");
        client.publish(QUEUE, REMINDER, 0, "k1");
        client.publishReply(QUEUE, REMINDER, -1, "k2");
        emulator.failNextPublishes(1, 500, "INTERNAL");
        client.publishReply(QUEUE, REMINDER, 0, "k3");

        assertEquals(4, emulator.publishRequests());
        assertEquals(1, emulator.published(QUEUE).size());
    }

    @Test
    void resetDropsMessagesFaultsAndCounters() {
        client.publish(QUEUE, REMINDER, 60, "k1");
        emulator.failNextPublishes(1, 503, "UNAVAILABLE");
        emulator.publishLatency(Duration.ofSeconds(5));

        emulator.reset();

        assertEquals(new QueueStats(QUEUE, 0, 0, 0, 0, 0, 0), emulator.stats(QUEUE));
        assertTrue(emulator.published(QUEUE).isEmpty());
        assertEquals(0, emulator.publishRequests());
        long start = System.nanoTime();
        String messageId = client.publish(QUEUE, REMINDER, 0, "k1");
        assertTrue(Duration.ofNanos(System.nanoTime() - start).toMillis() < 5000);
        assertEquals(messageId, emulator.published(QUEUE).get(0).messageId());
    }
}
