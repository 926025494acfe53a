package dev.tickler.tracing;

import static dev.tickler.testing.Api.createdId;
import static dev.tickler.testing.Api.publishedFor;
import static dev.tickler.testing.Api.pushReminderAt;
import static dev.tickler.testing.Api.reminderAt;
import static dev.tickler.testing.NotifierResource.notifier;
import static dev.tickler.testing.Push.push;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.SpanId;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;

import dev.tickler.emulator.PublishedMessage;
import dev.tickler.testing.Api;
import dev.tickler.testing.Database;
import dev.tickler.testing.InfraiEmulatorResource;
import dev.tickler.testing.NotifierStandIn.Received;
import dev.tickler.testing.NotifierStandIn.Reply;
import dev.tickler.testing.TracingProfile;

/**
 * A reminder's journey as one trace across the queue: the registration's server span, the publish, the push the
 * emulator makes back, the claim and the notifier call, joined by the W3C context the message carries; a sweep's
 * publish in a trace of its own, linked to the registration.
 */
@QuarkusTest
@TestProfile(TracingProfile.class)
class QueueHopTracingTest {

    private static final Duration DEADLINE = Duration.ofSeconds(20);
    private static final AttributeKey<String> HTTP_ROUTE = AttributeKey.stringKey("http.route");
    private static final AttributeKey<Long> HTTP_STATUS = AttributeKey.longKey("http.response.status_code");

    @Inject
    InMemorySpanExporter spans;

    @Inject
    Database database;

    @Test
    void registrationPublishPushClaimAndNotifierCallFormOneTrace() {
        Map<String, Object> body = pushReminderAt(Instant.now().plusSeconds(2));
        String user = (String) body.get("user_id");
        long id = createdId(body);

        SpanData notify = awaitSpan(id, span -> span.getKind() == SpanKind.CLIENT);
        SpanData registration = awaitSpan(id, span -> span.getKind() == SpanKind.SERVER
                && "/v1/reminders".equals(span.getAttributes().get(HTTP_ROUTE)));
        SpanData publish = onlySpan(id, span -> span.getKind() == SpanKind.PRODUCER);
        SpanData push = onlySpan(id, span -> span.getKind() == SpanKind.SERVER && span != registration
                && span.getName().equals("POST " + ReminderTracing.PUSH_ROUTE));
        SpanData claim = onlySpan(id, span -> span.getName().equals("claim reminder"));

        String trace = registration.getTraceId();
        assertThat(List.of(publish, push, claim, notify)).allSatisfy(span -> assertThat(span.getTraceId()).isEqualTo(trace));
        assertThat(publish.getParentSpanId()).isEqualTo(registration.getSpanId());
        assertThat(push.getParentSpanId()).isEqualTo(publish.getSpanId());
        assertThat(claim.getParentSpanId()).isEqualTo(push.getSpanId());
        assertThat(notify.getParentSpanId()).isEqualTo(push.getSpanId());

        assertThat(publish.getName()).isEqualTo("publish " + InfraiEmulatorResource.PUSHED_QUEUE);
        assertThat(publish.getAttributes().get(ReminderTracing.PUBLISH_VIA)).isEqualTo("api");
        assertThat(publish.getAttributes().get(AttributeKey.stringKey("messaging.message.id"))).isNotBlank();
        assertThat(push.getAttributes().get(HTTP_STATUS)).isEqualTo(200L);
        assertThat(claim.getAttributes().get(ReminderTracing.OUTCOME)).isEqualTo("claimed");
        assertThat(claim.getAttributes().get(ReminderTracing.TRANSPORT)).isEqualTo("push");
        assertThat(notify.getAttributes().get(HTTP_STATUS)).isEqualTo(200L);
        assertThat(notify.getAttributes().get(ReminderTracing.OUTCOME)).isEqualTo("delivered");
        assertThat(notify.getAttributes().get(ReminderTracing.ATTEMPT)).isEqualTo(1L);

        // the message carried the publish span's context; the notifier got the notifier span's
        PublishedMessage message = publishedFor(id, InfraiEmulatorResource.PUSHED_QUEUE).get(0);
        assertThat(message.body().getString("traceparent")).isEqualTo(traceparent(publish));
        List<Received> requests = notifier().receivedFor(user);
        assertThat(requests).singleElement().extracting(Received::traceparent).isEqualTo(traceparent(notify));
    }

    @Test
    void aRetryHandedBackToTheQueueContinuesTheSameTrace() {
        Map<String, Object> body = pushReminderAt(Instant.now());
        String user = (String) body.get("user_id");
        // a wait longer than the test profile's inline retries: the retry goes back on the queue
        notifier().script(user, Reply.rateLimited(1));
        long id = createdId(body);

        await().atMost(DEADLINE).until(() -> spansOf(id).stream()
                .filter(span -> span.getKind() == SpanKind.CLIENT).count() == 2);
        List<SpanData> publishes = spansOf(id).stream().filter(span -> span.getKind() == SpanKind.PRODUCER).toList();
        List<SpanData> pushes = spansOf(id).stream().filter(span -> span.getKind() == SpanKind.SERVER
                && span.getName().equals("POST " + ReminderTracing.PUSH_ROUTE)).toList();
        SpanData retry = publishes.stream()
                .filter(span -> "retry".equals(span.getAttributes().get(ReminderTracing.PUBLISH_VIA)))
                .findFirst().orElseThrow(() -> new AssertionError("no retry publish among " + publishes));
        SpanData firstPush = pushes.stream().filter(span -> span.getSpanId().equals(retry.getParentSpanId()))
                .findFirst().orElseThrow(() -> new AssertionError("the retry's publish is not under a push"));
        SpanData secondPush = pushes.stream().filter(span -> span.getParentSpanId().equals(retry.getSpanId()))
                .findFirst().orElseThrow(() -> new AssertionError("no push continues the retry's publish"));

        assertThat(publishes).hasSize(2);
        assertThat(spansOf(id)).allSatisfy(span -> assertThat(span.getTraceId()).isEqualTo(firstPush.getTraceId()));
        assertThat(spansOf(id).stream().filter(span -> span.getKind() == SpanKind.CLIENT))
                .extracting(span -> span.getAttributes().get(ReminderTracing.OUTCOME))
                .containsExactlyInAnyOrder("retryable", "delivered");
        assertThat(secondPush.getAttributes().get(HTTP_STATUS)).isEqualTo(200L);
        await().atMost(DEADLINE).untilAsserted(() -> Api.get(id).statusCode(200).body("state", equalTo("sent")));
    }

    @Test
    void noSpanNamesThePushPathsSecretTokenAndOnlyTheNotifierCallIsAClientSpan() {
        Map<String, Object> body = pushReminderAt(Instant.now());
        long id = createdId(body);
        awaitSpan(id, span -> span.getKind() == SpanKind.CLIENT);

        assertThat(spans.getFinishedSpanItems()).allSatisfy(span -> {
            assertThat(span.getName()).doesNotContain(InfraiEmulatorResource.PUSH_TOKEN);
            assertThat(span.getAttributes().asMap().values())
                    .noneMatch(value -> String.valueOf(value).contains(InfraiEmulatorResource.PUSH_TOKEN));
        });
        // no span per SQL statement, none of Vert.x's own for the queue's API: the publish span stands for that call
        assertThat(spans.getFinishedSpanItems()).filteredOn(span -> span.getKind() == SpanKind.CLIENT)
                .isNotEmpty().allSatisfy(span -> assertThat(span.getName()).isEqualTo("POST notifier"));
    }

    @Test
    void messageWithoutTraceContextIsDeliveredInATraceOfItsOwn() {
        long id = queuedButNeverPushed();

        push("{\"reminder_id\": " + id + ", \"version\": 0}").statusCode(200).body("result", equalTo("claimed"));

        SpanData notify = awaitSpan(id, span -> span.getKind() == SpanKind.CLIENT);
        SpanData push = onlySpan(id, span -> span.getKind() == SpanKind.SERVER
                && span.getName().equals("POST " + ReminderTracing.PUSH_ROUTE));
        assertThat(push.getParentSpanContext().isValid()).isFalse();
        assertThat(notify.getTraceId()).isEqualTo(push.getTraceId());
        assertThat(notify.getParentSpanId()).isEqualTo(push.getSpanId());
        // the notifier call's span ends with its answer, before the send is settled
        await().atMost(DEADLINE).untilAsserted(() -> Api.get(id).statusCode(200).body("state", equalTo("sent")));
    }

    @Test
    void malformedTraceContextIsIgnoredAndTheReminderDelivered() {
        long id = queuedButNeverPushed();

        push("{\"reminder_id\": " + id + ", \"version\": 0, \"traceparent\": \"00-not-a-trace-01\", \"tracestate\": 7}")
                .statusCode(200).body("result", equalTo("claimed"));

        SpanData notify = awaitSpan(id, span -> span.getKind() == SpanKind.CLIENT);
        SpanData push = onlySpan(id, span -> span.getKind() == SpanKind.SERVER
                && span.getName().equals("POST " + ReminderTracing.PUSH_ROUTE));
        assertThat(push.getParentSpanContext().isValid()).isFalse();
        assertThat(notify.getTraceId()).isEqualTo(push.getTraceId());
        // the notifier call's span ends with its answer, before the send is settled
        await().atMost(DEADLINE).untilAsserted(() -> Api.get(id).statusCode(200).body("state", equalTo("sent")));
    }

    @Test
    void sweepPublishStartsATraceOfItsOwnLinkedToTheRegistration() {
        // beyond the queue's week, so it stays parked; then moved into the sweep's window
        Map<String, Object> body = reminderAt(Instant.now().plus(Duration.ofDays(8)));
        long id = createdId(body);
        SpanData registration = awaitSpan(id, span -> span.getKind() == SpanKind.SERVER);
        assertThat(spansOf(id)).noneMatch(span -> span.getKind() == SpanKind.PRODUCER);
        database.execute("update reminders set fire_at = $1 where id = $2",
                Instant.now().plus(Duration.ofHours(1)).atOffset(ZoneOffset.UTC), id);

        Api.api().post("/v1/sweep").then().statusCode(200);

        SpanData publish = awaitSpan(id, span -> span.getKind() == SpanKind.PRODUCER);
        assertThat(publish.getAttributes().get(ReminderTracing.PUBLISH_VIA)).isEqualTo("sweep");
        assertThat(publish.getParentSpanContext().isValid()).isFalse();
        assertThat(publish.getTraceId()).isNotEqualTo(registration.getTraceId());
        assertThat(publish.getLinks()).singleElement().satisfies(link -> {
            assertThat(link.getSpanContext().getTraceId()).isEqualTo(registration.getTraceId());
            assertThat(link.getSpanContext().getSpanId()).isEqualTo(registration.getSpanId());
        });
        assertThat(publishedFor(id).get(0).body().getString("traceparent")).isEqualTo(traceparent(publish));
    }

    /** An email reminder due now: published to a queue the emulator does not push, so only the test pushes. */
    private static long queuedButNeverPushed() {
        long id = createdId(reminderAt(Instant.now()));
        Api.get(id).statusCode(200).body("state", equalTo("handed_off"));
        return id;
    }

    private SpanData awaitSpan(long id, Predicate<SpanData> which) {
        await().atMost(DEADLINE).until(() -> spansOf(id).stream().anyMatch(which));
        return onlySpan(id, which);
    }

    private SpanData onlySpan(long id, Predicate<SpanData> which) {
        List<SpanData> found = spansOf(id).stream().filter(which).toList();
        assertThat(found).as("spans of reminder %d", id).hasSize(1);
        return found.get(0);
    }

    private List<SpanData> spansOf(long id) {
        return spans.getFinishedSpanItems().stream()
                .filter(span -> Long.valueOf(id).equals(span.getAttributes().get(ReminderTracing.REMINDER_ID)))
                .toList();
    }

    private static String traceparent(SpanData span) {
        assertThat(span.getSpanId()).isNotEqualTo(SpanId.getInvalid());
        return "00-" + span.getTraceId() + "-" + span.getSpanId() + "-01";
    }
}
