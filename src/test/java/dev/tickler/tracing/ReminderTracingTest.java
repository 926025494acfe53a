package dev.tickler.tracing;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.context.Context;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;

/** The W3C context in and out of messages, the publish span's parent or link, and tracing off costing nothing. */
class ReminderTracingTest {

    private static final String TRACEPARENT = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

    private final InMemorySpanExporter exported = InMemorySpanExporter.create();
    private final ReminderTracing tracing = new ReminderTracing(OpenTelemetrySdk.builder()
            .setTracerProvider(SdkTracerProvider.builder().addSpanProcessor(SimpleSpanProcessor.create(exported)).build())
            .build(), false);
    private final ReminderTracing off = new ReminderTracing(OpenTelemetry.noop(), true);

    @Test
    void aCarriedTraceparentIsContinued() {
        Context carried = tracing.extract(TRACEPARENT, "vendor=x");

        Span push = tracing.startPush(carried, 7, 0);
        tracing.endPush(push, 200);

        SpanData span = exported.getFinishedSpanItems().get(0);
        assertThat(span.getTraceId()).isEqualTo("4bf92f3577b34da6a3ce929d0e0e4736");
        assertThat(span.getParentSpanId()).isEqualTo("00f067aa0ba902b7");
        assertThat(span.getSpanContext().getTraceState().get("vendor")).isEqualTo("x");
        assertThat(tracing.headersOf(push)).isEqualTo(new TraceHeaders(
                "00-4bf92f3577b34da6a3ce929d0e0e4736-" + span.getSpanId() + "-01", "vendor=x"));
    }

    @Test
    void malformedTraceparentsAreReadAsNone() {
        for (String malformed : new String[] { "", "00", "garbage", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7",
                "00-00000000000000000000000000000000-00f067aa0ba902b7-01",
                "00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01",
                "ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
                "00-4BF92F3577B34DA6A3CE929D0E0E4736-00F067AA0BA902B7-01",
                "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-extra" }) {
            assertThat(Span.fromContext(tracing.extract(malformed, "vendor=x")).getSpanContext().isValid())
                    .as(malformed).isFalse();
        }
        assertThat(tracing.extract(null, "vendor=x")).isSameAs(Context.root());
    }

    @Test
    void aPublishWithoutAParentStartsATraceLinkedToTheRegistration() {
        Span publish = tracing.startPublish(Context.root(), TRACEPARENT, "user-reminders", 7, 0, "sweep");
        tracing.endPublish(publish, "m-1", null);

        SpanData span = exported.getFinishedSpanItems().get(0);
        assertThat(span.getParentSpanContext().isValid()).isFalse();
        assertThat(span.getTraceId()).isNotEqualTo("4bf92f3577b34da6a3ce929d0e0e4736");
        assertThat(span.getLinks()).singleElement().satisfies(link -> {
            assertThat(link.getSpanContext().getTraceId()).isEqualTo("4bf92f3577b34da6a3ce929d0e0e4736");
            assertThat(link.getSpanContext().getSpanId()).isEqualTo("00f067aa0ba902b7");
        });
    }

    @Test
    void aPublishInTheRegistrationsOwnTraceNeedsNoLink() {
        Span publish = tracing.startPublish(tracing.extract(TRACEPARENT, null), TRACEPARENT, "user-reminders", 7, 0,
                "api");
        tracing.endPublish(publish, null, new IllegalStateException("refused"));

        SpanData span = exported.getFinishedSpanItems().get(0);
        assertThat(span.getParentSpanId()).isEqualTo("00f067aa0ba902b7");
        assertThat(span.getLinks()).isEmpty();
        assertThat(span.getStatus().getStatusCode()).isEqualTo(StatusCode.ERROR);
        assertThat(span.getAttributes().get(ReminderTracing.OUTCOME)).isEqualTo("failed");
    }

    @Test
    void withTracingOffNothingIsReadMadeOrCarried() {
        Context carried = off.extract(TRACEPARENT, null);
        Span push = off.startPush(carried, 7, 0);

        assertThat(carried).isSameAs(Context.root());
        assertThat(push).isSameAs(Span.getInvalid());
        assertThat(off.startPublish(Context.root(), TRACEPARENT, "q", 7, 0, "api")).isSameAs(Span.getInvalid());
        assertThat(off.startNotify(Context.root(), 7, 1, "localhost", 80)).isSameAs(Span.getInvalid());
        assertThat(off.headersOf(push)).isSameAs(TraceHeaders.NONE);
        assertThat(off.within(carried, push)).isSameAs(Context.root());
        assertThat(off.currentTraceparent()).isNull();
    }
}
