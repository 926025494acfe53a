package dev.tickler.publish;

import java.time.Instant;

import io.opentelemetry.context.Context;

import dev.tickler.tracing.TraceHeaders;

/**
 * One hand-off of one reminder to the queue: which row (and whose) and version, its hand-off number (part of the publish key),
 * the channel (which picks the queue), when the message should come back, and why it is published. {@code trace} is
 * the trace the publish continues (a request's, or a delivery's for a retry); the root context starts a new trace,
 * linked to {@code origin}, the traceparent of the reminder's registration, when there is one.
 */
public record Publication(long reminderId, String tenant, int version, int handoff, String channel, Instant dueAt,
        Via via, Context trace, String origin) {

    /** A publication made while a request is served: it continues the request's trace. */
    public Publication(long reminderId, String tenant, int version, int handoff, String channel, Instant dueAt,
            Via via) {
        this(reminderId, tenant, version, handoff, channel, dueAt, via, Context.current(), null);
    }

    public ReminderMessage message(TraceHeaders trace) {
        return new ReminderMessage(reminderId, version, tenant, trace.traceparent(), trace.tracestate());
    }

    public String publishKey() {
        return ReminderKeys.publishKey(reminderId, version, handoff);
    }
}
