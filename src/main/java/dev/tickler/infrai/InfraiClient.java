package dev.tickler.infrai;

import java.net.URI;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.quarkus.rest.client.reactive.QuarkusRestClientBuilder;
import io.quarkus.runtime.Startup;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;

import dev.tickler.config.TicklerConfig;
import dev.tickler.http.TransportFailure;
import dev.tickler.time.Pause;
import dev.tickler.infrai.InfraiModels.AckRequest;
import dev.tickler.infrai.InfraiModels.ConsumeRequest;
import dev.tickler.infrai.InfraiModels.ConsumedMessage;
import dev.tickler.infrai.InfraiModels.NackRequest;
import dev.tickler.infrai.InfraiModels.PublishRequest;
import dev.tickler.infrai.InfraiModels.QueueStats;
import dev.tickler.infrai.InfraiModels.SubscribeRequest;
import dev.tickler.tracing.UntracedHttpClientOptions;

/**
 * The one way into Infrai's queue: unwraps envelopes, turns errors into {@link InfraiException}s, waits out
 * short 429s, bounds every call by tickler.infrai.timeout, and refuses what the queue would refuse before any call is
 * made. Made at start, off any event loop: a Vert.x client first made on a request's event loop belongs to that
 * HTTP verticle and closes with it, before the shutdown's hand-backs publish.
 */
@Startup
@ApplicationScoped
public class InfraiClient {

    /** The queue's delay ceiling (docs/contract.md#the-queue-api): 7 days. */
    public static final long MAX_DELAY_SECONDS = 604_800;

    private final InfraiApi api;
    private final PublishClient publisher;
    private final TicklerConfig.Infrai config;
    private final Pause pause;
    private final String authorization;

    /** How long opening a connection to the queue API may take, at most; a shorter call timeout bounds it further. */
    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(5);

    @Inject
    public InfraiClient(TicklerConfig config, Pause pause, Vertx vertx, ObjectMapper mapper) {
        this.config = config.infrai();
        // a shorter call timeout bounds the connect timeout too
        Duration connectTimeout = this.config.timeout().compareTo(CONNECT_TIMEOUT) < 0 ? this.config.timeout()
                : CONNECT_TIMEOUT;
        this.api = restClient(this.config, connectTimeout);
        // publish-concurrency publishes in flight, and twice as many connections kept for them
        this.publisher = new PublishClient(vertx, mapper, this.config.baseUrl(), this.config.timeout(),
                connectTimeout, 2 * this.config.publishConcurrency());
        this.pause = pause;
        this.authorization = "Bearer " + this.config.apiKey().orElse("");
    }

    /** The queue API over HTTP, every call bounded by the configured timeout. */
    private static InfraiApi restClient(TicklerConfig.Infrai config, Duration connectTimeout) {
        long timeoutMillis = config.timeout().toMillis();
        return QuarkusRestClientBuilder.newBuilder()
                .baseUri(URI.create(config.baseUrl()))
                .connectTimeout(connectTimeout.toMillis(), TimeUnit.MILLISECONDS)
                .readTimeout(timeoutMillis, TimeUnit.MILLISECONDS)
                // Vert.x adds no client span of its own
                .register(UntracedHttpClientOptions.class)
                .build(InfraiApi.class);
    }

    /** The queue a channel's reminders go to: its own if configured, else the default. */
    public String queueFor(String channel) {
        return config.queues().getOrDefault(channel, config.queue());
    }

    /** Every queue this instance publishes to, the default first. */
    public Set<String> queues() {
        Set<String> queues = new LinkedHashSet<>();
        queues.add(config.queue());
        queues.addAll(config.queues().values());
        return queues;
    }

    /** Publishes and answers the message id; a repeated key answers the first message's id. */
    public Uni<String> publish(String queue, Object body, long delaySeconds, String idempotencyKey) {
        if (delaySeconds < 0 || delaySeconds > MAX_DELAY_SECONDS) {
            return Uni.createFrom().failure(new IllegalArgumentException("delay of " + delaySeconds
                    + " s is outside the queue's 0.." + MAX_DELAY_SECONDS + " s; refused rather than rounded"));
        }
        PublishRequest request = new PublishRequest(queue, body, delaySeconds, idempotencyKey);
        return call(() -> publisher.publish(authorization, request)).map(InfraiModels.PublishResult::messageId);
    }

    public Uni<List<ConsumedMessage>> consume(String queue, int maxMessages) {
        ConsumeRequest request = new ConsumeRequest(queue, maxMessages);
        return call(() -> api.consume(authorization, request)).map(result -> result.items() == null
                ? List.<ConsumedMessage>of() : result.items());
    }

    /** Fails with code {@link InfraiException#MESSAGE_NOT_IN_FLIGHT} when the lease ran out first. */
    public Uni<Void> ack(String queue, String receiptHandle) {
        return call(() -> api.ack(authorization, new AckRequest(queue, receiptHandle))).replaceWithVoid();
    }

    public Uni<Void> nack(String queue, String messageId) {
        return call(() -> api.nack(authorization, new NackRequest(queue, messageId))).replaceWithVoid();
    }

    /** Registers a push subscription; Infrai neither checks the URL nor offers an unsubscribe. */
    public Uni<JsonNode> subscribePush(String queue, String url, String secret) {
        return call(() -> api.pushSubscribe(authorization, queue, new SubscribeRequest(queue, url, secret)));
    }

    public Uni<QueueStats> stats(String queue) {
        return call(() -> api.stats(authorization, queue))
                .map(data -> new QueueStats(queue, data.path("delayed_count").asLong(), data));
    }

    public Uni<JsonNode> usage() {
        return call(() -> api.usage(authorization));
    }

    private <T> Uni<T> call(Supplier<Uni<InfraiEnvelope<T>>> request) {
        return withRateLimitRetries(request, config.rateLimitRetries());
    }

    private <T> Uni<T> withRateLimitRetries(Supplier<Uni<InfraiEnvelope<T>>> request, int retriesLeft) {
        return Uni.createFrom().<InfraiEnvelope<T>>deferred(request::get)
                .onFailure().transform(InfraiClient::asInfraiException)
                .map(InfraiClient::unwrap)
                .onFailure(InfraiRateLimitedException.class).recoverWithUni(failure -> {
                    Duration wait = ((InfraiRateLimitedException) failure).retryAfter();
                    if (retriesLeft <= 0 || wait == null || wait.compareTo(config.maxRetryAfter()) > 0) {
                        return Uni.createFrom().failure(failure);
                    }
                    return pause.of(wait).chain(() -> withRateLimitRetries(request, retriesLeft - 1));
                });
    }

    private static <T> T unwrap(InfraiEnvelope<T> envelope) {
        if (envelope == null) {
            throw new InfraiException(200, "EMPTY_ANSWER", "the answer had no body");
        }
        if (!envelope.ok()) {
            InfraiEnvelope.Error error = envelope.error();
            throw new InfraiException(200, error == null ? "UNKNOWN" : error.code(),
                    error == null ? "ok is false and no error was given" : error.message());
        }
        return envelope.data();
    }

    /** The REST client may wrap what our exception mapper made; anything else is a transport failure. */
    private static InfraiException asInfraiException(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof InfraiException infrai) {
                return infrai;
            }
        }
        return new InfraiException(0, InfraiException.UNREACHABLE, TransportFailure.describe(failure), failure);
    }
}
