package dev.tickler.delivery;

import java.net.URI;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.util.TypeLiteral;
import jakarta.ws.rs.core.Response;

import org.eclipse.microprofile.faulttolerance.exceptions.TimeoutException;
import org.jboss.resteasy.reactive.client.api.QuarkusRestClientProperties;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.opentelemetry.api.trace.Span;
import io.quarkus.rest.client.reactive.QuarkusRestClientBuilder;
import io.quarkus.runtime.Startup;
import io.smallrye.faulttolerance.api.TypedGuard;
import io.smallrye.mutiny.Uni;

import dev.tickler.config.TicklerConfig;
import dev.tickler.http.HttpUrls;
import dev.tickler.http.RetryAfter;
import dev.tickler.http.TransportFailure;
import dev.tickler.tracing.ReminderTracing;
import dev.tickler.tracing.TraceHeaders;
import dev.tickler.tracing.UntracedHttpClientOptions;

/**
 * The one way to the notification provider: sends with the send key as Idempotency-Key, bounds each call by
 * tickler.notify.timeout, and turns every answer or failure into a {@link NotifierOutcome}. Callers never see HTTP.
 * Made at start, so that an instance without a usable tickler.notify.url refuses to start instead of failing every
 * delivery it claims.
 */
@Startup
@ApplicationScoped
public class NotifierClient {

    private final NotifierApi api;
    private final ObjectWriter payloadWriter;
    private final TypedGuard<Uni<Response>> guard;
    private final Duration timeout;
    private final Map<String, Counter> responses = new ConcurrentHashMap<>();
    private final MeterRegistry registry;
    private final Counter rateLimited;
    private final ReminderTracing tracing;
    private final String host;
    private final int port;

    public NotifierClient(TicklerConfig config, MeterRegistry registry, ReminderTracing tracing, ObjectMapper mapper) {
        URI url = providerUrl(config.notifier().url());
        this.host = url.getHost();
        this.port = portOf(url);
        this.tracing = tracing;
        this.api = QuarkusRestClientBuilder.newBuilder()
                .baseUri(url)
                // the notifier span below describes the call and sends its traceparent; Vert.x adds none of its own
                .register(UntracedHttpClientOptions.class)
                // statuses are outcomes to classify here, not exceptions
                .property("microprofile.rest.client.disable.default.mapper", true)
                // one connection per call the concurrency limit lets through: a smaller pool would queue calls inside
                // the client, and the limit would read that queueing as the provider slowing down
                .property(QuarkusRestClientProperties.CONNECTION_POOL_SIZE, config.notifier().concurrency())
                .build(NotifierApi.class);
        this.payloadWriter = mapper.writerFor(NotificationPayload.class);
        this.timeout = config.notifier().timeout();
        this.guard = TypedGuard.create(new TypeLiteral<Uni<Response>>() {
                })
                .withTimeout().duration(timeout.toMillis(), ChronoUnit.MILLIS).done()
                .build();
        this.registry = registry;
        this.rateLimited = Counter.builder("tickler.notify.rate.limited")
                .description("Notifier answers with 429").register(registry);
    }

    /** The provider's absolute http(s) URL; anything else stops the start with a message that names the key. */
    static URI providerUrl(Optional<String> configured) {
        String url = configured.map(String::strip).filter(value -> !value.isEmpty()).orElseThrow(
                () -> new IllegalStateException("tickler.notify.url (NOTIFY_URL) is not set: Tickler has no "
                        + "notification provider to deliver reminders to and does not start without one"));
        return HttpUrls.absoluteHttp(url).orElseThrow(() -> new IllegalStateException(
                "tickler.notify.url (NOTIFY_URL) must be an absolute http or https URL, not " + url));
    }

    Uni<NotifierOutcome> send(ClaimedReminder claim) {
        Span span = tracing.startNotify(claim.trace(), claim.id(), claim.attempts() + 1, host, port);
        TraceHeaders trace = tracing.headersOf(span);
        long started = System.nanoTime();
        Uni<NotifierOutcome> outcome = guard.get(() -> api.send(claim.sendKey(), trace.traceparent(),
                        trace.tracestate(), body(claim)))
                .map(response -> classify(response, millisSince(started)))
                .onFailure().recoverWithItem(failure -> classifyFailure(failure, millisSince(started)));
        return tracing.enabled() ? outcome.invoke(answer -> endSpan(span, answer)) : outcome;
    }

    private byte[] body(ClaimedReminder claim) {
        try {
            return payloadWriter.writeValueAsBytes(NotificationPayload.of(claim));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("the notification for reminder " + claim.id() + " could not be written", e);
        }
    }

    private void endSpan(Span span, NotifierOutcome outcome) {
        if (outcome instanceof NotifierOutcome.Delivered delivered) {
            tracing.endNotify(span, delivered.status(), "delivered", null);
        } else if (outcome instanceof NotifierOutcome.Permanent permanent) {
            tracing.endNotify(span, permanent.status(), "permanent", permanent.error());
        } else {
            NotifierOutcome.Retryable retryable = (NotifierOutcome.Retryable) outcome;
            tracing.endNotify(span, retryable.status(), "retryable", retryable.error());
        }
    }

    private static int portOf(URI uri) {
        if (uri.getPort() != -1) {
            return uri.getPort();
        }
        return "https".equalsIgnoreCase(uri.getScheme()) ? 443 : 80;
    }

    private NotifierOutcome classify(Response response, long latencyMillis) {
        int status = response.getStatus();
        response.close();
        count(status / 100 + "xx");
        if (status >= 200 && status < 300) {
            return new NotifierOutcome.Delivered(status, latencyMillis);
        }
        if (status == 429) {
            rateLimited.increment();
            return new NotifierOutcome.Retryable(status, false, "HTTP 429",
                    RetryAfter.parse(response.getHeaderString("Retry-After")), true, latencyMillis);
        }
        if (status == 408 || status >= 500) {
            return new NotifierOutcome.Retryable(status, false, "HTTP " + status, null, false, latencyMillis);
        }
        return new NotifierOutcome.Permanent(status, "HTTP " + status, latencyMillis);
    }

    private NotifierOutcome classifyFailure(Throwable failure, long latencyMillis) {
        if (failure instanceof TimeoutException) {
            count("timeout");
            return new NotifierOutcome.Retryable(null, true, "no answer within " + timeout, null, false, latencyMillis);
        }
        count("error");
        return new NotifierOutcome.Retryable(null, false, "connection failed: " + TransportFailure.describe(failure),
                null, false, latencyMillis);
    }

    private static long millisSince(long startedNanos) {
        return (System.nanoTime() - startedNanos) / 1_000_000;
    }

    private void count(String statusClass) {
        responses.computeIfAbsent(statusClass, label -> Counter.builder("tickler.notify.responses").tag("class", label)
                .description("Notifier answers by status class, timeouts and connection errors").register(registry))
                .increment();
    }
}
