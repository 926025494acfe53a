package dev.tickler.infrai;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;

import dev.tickler.infrai.InfraiModels.PublishRequest;
import dev.tickler.infrai.InfraiModels.PublishResult;
import dev.tickler.tracing.UntracedHttpClientOptions;

/**
 * The queue's publish (docs/contract.md#the-queue-api) on a plain Vert.x HTTP client, the other calls staying on the
 * REST client: every hand-off is one publish, and the REST client's per-call work (its handler chain, context
 * propagation, entity readers and writers) held a sweep to about four fifths of this rate (docs/sweep.md). The same
 * request body, envelope and error mapping as the other calls ({@link InfraiApi#errorOf}).
 */
final class PublishClient {

    private static final TypeReference<InfraiEnvelope<PublishResult>> ENVELOPE = new TypeReference<>() {
    };

    private final HttpClient http;
    private final ObjectMapper mapper;
    private final String url;
    private final long timeoutMillis;

    PublishClient(Vertx vertx, ObjectMapper mapper, String baseUrl, Duration timeout, Duration connectTimeout,
            int connections) {
        this.mapper = InfraiApi.objectMapper(mapper);
        this.url = baseUrl.replaceAll("/+$", "") + "/v1/queue/publish";
        this.timeoutMillis = timeout.toMillis();
        // the publisher's span describes a publish; Vert.x adds no client span of its own
        this.http = vertx.createHttpClient(
                UntracedHttpClientOptions.untraced().setConnectTimeout((int) connectTimeout.toMillis()),
                new PoolOptions().setHttp1MaxSize(connections));
    }

    /** Answers the envelope as Infrai sent it; an error status fails with the typed exception of the other calls. */
    Uni<InfraiEnvelope<PublishResult>> publish(String authorization, PublishRequest request) {
        Buffer body;
        try {
            body = Buffer.buffer(mapper.writeValueAsBytes(request));
        } catch (IOException e) {
            return Uni.createFrom().failure(new UncheckedIOException(e));
        }
        // no data for this long, and the call fails: the REST client's read timeout
        RequestOptions options = new RequestOptions().setMethod(HttpMethod.POST).setAbsoluteURI(url)
                .setIdleTimeout(timeoutMillis)
                .putHeader(HttpHeaders.AUTHORIZATION, authorization)
                .putHeader(HttpHeaders.CONTENT_TYPE, "application/json")
                .putHeader(HttpHeaders.ACCEPT, "application/json");
        // the body is asked for inside the send's own composition: chained after it instead, a call from a thread of
        // no Vert.x context (a test's, a worker's) may see the answer end before it asks, and read an empty body
        return Uni.createFrom().completionStage(() -> http.request(options)
                .compose(call -> call.send(body)
                        .compose(response -> response.body().map(answer -> read(response, answer))))
                .toCompletionStage());
    }

    /** A 200 that is not an envelope (a proxy's page) fails as the REST client's unreadable answer does. */
    private InfraiEnvelope<PublishResult> read(HttpClientResponse response, Buffer answer) {
        if (response.statusCode() >= 400) {
            throw InfraiApi.errorOf(response.statusCode(), readTree(answer), response.getHeader("Retry-After"));
        }
        try {
            return mapper.readValue(answer.getBytes(), ENVELOPE);
        } catch (IOException notAnEnvelope) {
            throw new UncheckedIOException("the answer (HTTP " + response.statusCode() + ") is not an envelope",
                    notAnEnvelope);
        }
    }

    private JsonNode readTree(Buffer answer) {
        try {
            return mapper.readTree(answer.getBytes());
        } catch (IOException notJson) {
            return null;
        }
    }
}
