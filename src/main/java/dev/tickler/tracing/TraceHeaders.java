package dev.tickler.tracing;

/**
 * A span's context in W3C Trace Context form, as a queue message carries it beside the ids and as the notifier gets
 * it in headers. Both are null when there is nothing to carry (tracing off, or no span).
 */
public record TraceHeaders(String traceparent, String tracestate) {

    public static final TraceHeaders NONE = new TraceHeaders(null, null);
}
