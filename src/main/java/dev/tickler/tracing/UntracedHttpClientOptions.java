package dev.tickler.tracing;

import jakarta.ws.rs.ext.ContextResolver;

import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.tracing.TracingPolicy;

/**
 * The base HTTP options of the queue's and the notifier's REST clients: Vert.x's own client spans are off for them,
 * because the publish and notifier spans already describe those calls under the right parent and carry the W3C context
 * where it belongs (the message body, the notifier's headers). Vert.x would otherwise hang a span of its own on
 * whatever request happened to be current and overwrite the notifier's traceparent header with it. A new instance each
 * time: the REST client writes its configured timeouts and pool size into it. The queue's publish client, a plain
 * Vert.x client, starts from {@link #untraced()} too.
 */
public class UntracedHttpClientOptions implements ContextResolver<HttpClientOptions> {

    @Override
    public HttpClientOptions getContext(Class<?> type) {
        return type == HttpClientOptions.class ? untraced() : null;
    }

    /** New options without Vert.x's client spans. */
    public static HttpClientOptions untraced() {
        return new HttpClientOptions().setTracingPolicy(TracingPolicy.IGNORE);
    }
}
