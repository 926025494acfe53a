package dev.tickler.tracing;

import java.util.List;

import jakarta.inject.Singleton;

import org.eclipse.microprofile.config.inject.ConfigProperty;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanBuilder;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.propagation.TextMapGetter;
import io.opentelemetry.context.propagation.TextMapSetter;

import dev.tickler.http.PushPath;

/**
 * The spans of a reminder's journey and the W3C context that carries it across the queue (docs/operating.md,
 * "Tracing"): the publish, the push, the claim, the notifier call and the reconciler's take-over, each with the
 * reminder's id. The context travels in the queue message, not in HTTP headers, because the queue's push does not
 * forward the publisher's headers. With the SDK off (the default) every method returns at once and allocates
 * nothing, so the push path pays one boolean test.
 */
@Singleton
public class ReminderTracing {

    public static final AttributeKey<Long> REMINDER_ID = AttributeKey.longKey("tickler.reminder.id");
    public static final AttributeKey<Long> REMINDER_VERSION = AttributeKey.longKey("tickler.reminder.version");
    public static final AttributeKey<String> PUBLISH_VIA = AttributeKey.stringKey("tickler.publish.via");
    public static final AttributeKey<String> TRANSPORT = AttributeKey.stringKey("tickler.delivery.transport");
    public static final AttributeKey<Long> ATTEMPT = AttributeKey.longKey("tickler.delivery.attempt");
    public static final AttributeKey<String> TAKE_OVER_REASON = AttributeKey.stringKey("tickler.reconcile.reason");
    /** What the step came to: claimed or why not, the push's answer, the notifier's outcome. */
    public static final AttributeKey<String> OUTCOME = AttributeKey.stringKey("tickler.outcome");

    // OpenTelemetry's semantic conventions, named here rather than through the incubating semconv artifact
    static final AttributeKey<String> MESSAGING_SYSTEM = AttributeKey.stringKey("messaging.system");
    static final AttributeKey<String> MESSAGING_OPERATION = AttributeKey.stringKey("messaging.operation.type");
    static final AttributeKey<String> MESSAGING_DESTINATION = AttributeKey.stringKey("messaging.destination.name");
    static final AttributeKey<String> MESSAGING_MESSAGE_ID = AttributeKey.stringKey("messaging.message.id");
    static final AttributeKey<String> HTTP_METHOD = AttributeKey.stringKey("http.request.method");
    static final AttributeKey<String> HTTP_ROUTE = AttributeKey.stringKey("http.route");
    static final AttributeKey<Long> HTTP_STATUS = AttributeKey.longKey("http.response.status_code");
    static final AttributeKey<String> SERVER_ADDRESS = AttributeKey.stringKey("server.address");
    static final AttributeKey<Long> SERVER_PORT = AttributeKey.longKey("server.port");
    static final AttributeKey<String> ERROR_TYPE = AttributeKey.stringKey("error.type");

    /** The push path as a route: the token itself is a secret and never becomes an attribute. */
    public static final String PUSH_ROUTE = PushPath.TEMPLATE;

    private static final W3CTraceContextPropagator W3C = W3CTraceContextPropagator.getInstance();
    private static final String TRACEPARENT = "traceparent";
    private static final String TRACESTATE = "tracestate";

    private static final TextMapGetter<TraceHeaders> FROM_HEADERS = new TextMapGetter<>() {
        @Override
        public Iterable<String> keys(TraceHeaders carrier) {
            return List.of(TRACEPARENT, TRACESTATE);
        }

        @Override
        public String get(TraceHeaders carrier, String key) {
            if (carrier == null) {
                return null;
            }
            return TRACEPARENT.equals(key) ? carrier.traceparent() : TRACESTATE.equals(key) ? carrier.tracestate() : null;
        }
    };

    private static final TextMapSetter<String[]> INTO_PAIR = (pair, key, value) -> {
        if (TRACEPARENT.equals(key)) {
            pair[0] = value;
        } else if (TRACESTATE.equals(key)) {
            pair[1] = value;
        }
    };

    private final Tracer tracer;
    private final boolean enabled;

    public ReminderTracing(OpenTelemetry openTelemetry,
            @ConfigProperty(name = "quarkus.otel.sdk.disabled", defaultValue = "false") boolean sdkDisabled) {
        this.tracer = openTelemetry.getTracer("dev.tickler");
        this.enabled = !sdkDisabled;
    }

    public boolean enabled() {
        return enabled;
    }

    /**
     * The context a message or row carries, to continue or link to; the root context (nothing to continue) when it
     * carries none or a malformed one, which is ignored rather than refused.
     */
    public Context extract(String traceparent, String tracestate) {
        if (!enabled || traceparent == null) {
            return Context.root();
        }
        Context extracted = W3C.extract(Context.root(), new TraceHeaders(traceparent, tracestate), FROM_HEADERS);
        return Span.fromContext(extracted).getSpanContext().isValid() ? extracted : Context.root();
    }

    /** The span's context in W3C form, for a message or the notifier's headers. */
    public TraceHeaders headersOf(Span span) {
        if (!enabled || !span.getSpanContext().isValid()) {
            return TraceHeaders.NONE;
        }
        String[] pair = new String[2];
        W3C.inject(Context.root().with(span), pair, INTO_PAIR);
        return new TraceHeaders(pair[0], pair[1]);
    }

    /** The traceparent of the span the current request is served in, kept on the reminder's row; null when none. */
    public String currentTraceparent() {
        return enabled ? headersOf(Span.current()).traceparent() : null;
    }

    /** Names the reminder on the span of the request being served (the registration's server span). */
    public void tagCurrent(long reminderId) {
        if (enabled) {
            Span.current().setAttribute(REMINDER_ID, reminderId);
        }
    }

    /** The context the span's children are made in. */
    public Context within(Context parent, Span span) {
        return enabled ? parent.with(span) : Context.root();
    }

    /**
     * The hand-off to the queue: a child of {@code parent}, or, when that is the root, the first span of a new trace
     * linked to the reminder's registration ({@code origin}, a traceparent).
     */
    public Span startPublish(Context parent, String origin, String queue, long reminderId, int version, String via) {
        if (!enabled) {
            return Span.getInvalid();
        }
        SpanBuilder builder = tracer.spanBuilder("publish " + queue).setSpanKind(SpanKind.PRODUCER).setParent(parent)
                .setAttribute(MESSAGING_SYSTEM, "infrai")
                .setAttribute(MESSAGING_OPERATION, "send")
                .setAttribute(MESSAGING_DESTINATION, queue)
                .setAttribute(REMINDER_ID, reminderId)
                .setAttribute(REMINDER_VERSION, (long) version)
                .setAttribute(PUBLISH_VIA, via);
        linkToOrigin(builder, parent, origin);
        return builder.startSpan();
    }

    public void endPublish(Span span, String messageId, Throwable failure) {
        if (!enabled) {
            return;
        }
        if (messageId != null) {
            span.setAttribute(MESSAGING_MESSAGE_ID, messageId);
        }
        end(span, messageId != null ? "published" : "failed", failure);
    }

    /**
     * The push as the receiver serves it, continuing the trace the message carries. Made here rather than by the HTTP
     * instrumentation, which starts before the body (and so the context) is read and would record the secret path.
     */
    public Span startPush(Context parent, long reminderId, int version) {
        if (!enabled) {
            return Span.getInvalid();
        }
        return tracer.spanBuilder("POST " + PUSH_ROUTE).setSpanKind(SpanKind.SERVER).setParent(parent)
                .setAttribute(HTTP_METHOD, "POST")
                .setAttribute(HTTP_ROUTE, PUSH_ROUTE)
                .setAttribute(REMINDER_ID, reminderId)
                .setAttribute(REMINDER_VERSION, (long) version)
                .startSpan();
    }

    /** The push's answer; null when there was none to give (the pushing client went away first). */
    public void endPush(Span span, Integer status) {
        if (!enabled) {
            return;
        }
        if (status == null) {
            span.setAttribute(OUTCOME, "client_gone");
        } else {
            span.setAttribute(HTTP_STATUS, (long) status);
            if (status >= 500) {
                span.setStatus(StatusCode.ERROR);
            }
        }
        span.end();
    }

    /** The one atomic claim of a message's reminder. */
    public Span startClaim(Context parent, long reminderId, int version, String transport) {
        if (!enabled) {
            return Span.getInvalid();
        }
        return tracer.spanBuilder("claim reminder").setParent(parent)
                .setAttribute(REMINDER_ID, reminderId)
                .setAttribute(REMINDER_VERSION, (long) version)
                .setAttribute(TRANSPORT, transport)
                .startSpan();
    }

    /**
     * The reconciler's take-over of a reminder that never came back: the first span of a trace of its own, linked to
     * the reminder's registration.
     */
    public Span startTakeOver(String origin, long reminderId, int version, String reason) {
        if (!enabled) {
            return Span.getInvalid();
        }
        SpanBuilder builder = tracer.spanBuilder("reconcile reminder").setNoParent()
                .setAttribute(REMINDER_ID, reminderId)
                .setAttribute(REMINDER_VERSION, (long) version)
                .setAttribute(TAKE_OVER_REASON, reason);
        linkToOrigin(builder, Context.root(), origin);
        return builder.startSpan();
    }

    /** One call to the notification provider; its traceparent goes along in the request's headers. */
    public Span startNotify(Context parent, long reminderId, int attempt, String host, int port) {
        if (!enabled) {
            return Span.getInvalid();
        }
        return tracer.spanBuilder("POST notifier").setSpanKind(SpanKind.CLIENT).setParent(parent)
                .setAttribute(HTTP_METHOD, "POST")
                .setAttribute(SERVER_ADDRESS, host)
                .setAttribute(SERVER_PORT, (long) port)
                .setAttribute(REMINDER_ID, reminderId)
                .setAttribute(ATTEMPT, (long) attempt)
                .startSpan();
    }

    /** The notifier's answer (null when none came) and the outcome it was classified as. */
    public void endNotify(Span span, Integer status, String outcome, String error) {
        if (!enabled) {
            return;
        }
        if (status != null) {
            span.setAttribute(HTTP_STATUS, (long) status);
        }
        span.setAttribute(OUTCOME, outcome);
        if (error != null) {
            span.setAttribute(ERROR_TYPE, status != null ? status.toString() : error);
            span.setStatus(StatusCode.ERROR, error);
        }
        span.end();
    }

    /** Ends a span with what its step came to; a failure marks it as an error. */
    public void end(Span span, String outcome, Throwable failure) {
        if (!enabled) {
            return;
        }
        span.setAttribute(OUTCOME, outcome);
        if (failure != null) {
            span.setAttribute(ERROR_TYPE, failure.getClass().getName());
            span.setStatus(StatusCode.ERROR, String.valueOf(failure.getMessage()));
        }
        span.end();
    }

    private void linkToOrigin(SpanBuilder builder, Context parent, String origin) {
        if (origin == null) {
            return;
        }
        SpanContext registration = Span.fromContext(extract(origin, null)).getSpanContext();
        if (registration.isValid()
                && !registration.getTraceId().equals(Span.fromContext(parent).getSpanContext().getTraceId())) {
            builder.addLink(registration);
        }
    }
}
