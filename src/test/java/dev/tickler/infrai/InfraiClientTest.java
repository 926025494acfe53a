package dev.tickler.infrai;

import static dev.tickler.testing.InfraiEmulatorResource.emulator;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;

import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;

import dev.tickler.config.TicklerConfig;
import dev.tickler.testing.Ports;
import dev.tickler.time.Pause;

import dev.tickler.infrai.InfraiModels.ConsumedMessage;

/**
 * The adapter against the emulator over real HTTP: every call of docs/contract.md#the-queue-api and its error mapping.
 */
@QuarkusTest
class InfraiClientTest {

    private static final Duration WAIT = Duration.ofSeconds(10);

    @Inject
    InfraiClient infrai;

    @Inject
    TicklerConfig config;

    @Inject
    Pause pause;

    @Inject
    Vertx vertx;

    @Inject
    ObjectMapper mapper;

    @Test
    void delayOverTheCeilingIsRefusedBeforeAnyCall() {
        int requestsBefore = emulator().publishRequests();

        assertThatThrownBy(() -> infrai.publish(queue(), Map.of("reminder_id", 1), 604_801, key())
                .await().atMost(WAIT))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("604801");
        assertThat(emulator().publishRequests()).isEqualTo(requestsBefore);
    }

    @Test
    void delayAtTheCeilingIsPublished() {
        String queue = queue();
        String messageId = infrai.publish(queue, Map.of("reminder_id", 1), 604_800, key()).await().atMost(WAIT);

        assertThat(messageId).isNotBlank();
        assertThat(infrai.stats(queue).await().atMost(WAIT).delayedCount()).isEqualTo(1);
    }

    @Test
    void sameKeyAnswersTheSameMessage() {
        String queue = queue();
        String key = key();

        String first = infrai.publish(queue, Map.of("reminder_id", 1), 60, key).await().atMost(WAIT);
        String second = infrai.publish(queue, Map.of("reminder_id", 1), 60, key).await().atMost(WAIT);

        assertThat(second).isEqualTo(first);
        assertThat(emulator().published(queue)).hasSize(1);
    }

    @Test
    void errorEnvelopeBecomesATypedExceptionWithCodeAndMessage() {
        emulator().failNextPublishes(1, 503, "QUEUE_UNAVAILABLE");

        assertThatThrownBy(() -> infrai.publish(queue(), Map.of(), 0, key()).await().atMost(WAIT))
                .isInstanceOfSatisfying(InfraiException.class, e -> {
                    assertThat(e.status()).isEqualTo(503);
                    assertThat(e.code()).isEqualTo("QUEUE_UNAVAILABLE");
                    assertThat(e.errorMessage()).isNotBlank();
                });
    }

    @Test
    void rateLimitIsRetriedAfterRetryAfter() {
        String queue = queue();
        emulator().rateLimitNextPublishes(2, 1);
        long started = System.nanoTime();

        String messageId = infrai.publish(queue, Map.of(), 0, key()).await().atMost(WAIT);

        assertThat(messageId).isNotBlank();
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isGreaterThanOrEqualTo(Duration.ofMillis(1900));
    }

    @Test
    void rateLimitBeyondTheRetryBudgetFailsAsRateLimited() {
        emulator().rateLimitNextPublishes(3, 1);

        assertThatThrownBy(() -> infrai.publish(queue(), Map.of(), 0, key()).await().atMost(WAIT))
                .isInstanceOfSatisfying(InfraiRateLimitedException.class, e -> {
                    assertThat(e.code()).isEqualTo("RATE_LIMITED");
                    assertThat(e.retryAfter()).isEqualTo(Duration.ofSeconds(1));
                });
    }

    @Test
    void unreachableQueueIsATypedException() {
        InfraiClient unreachable = clientOf(withInfrai(config, "baseUrl", "http://127.0.0.1:" + Ports.freePort()));

        assertThatThrownBy(() -> unreachable.publish(queue(), Map.of(), 0, key()).await().atMost(WAIT))
                .isInstanceOfSatisfying(InfraiException.class, e -> {
                    assertThat(e.code()).isEqualTo(InfraiException.UNREACHABLE);
                    assertThat(e.status()).isZero();
                });
        assertThatThrownBy(() -> unreachable.stats(queue()).await().atMost(WAIT))
                .isInstanceOfSatisfying(InfraiException.class,
                        e -> assertThat(e.code()).isEqualTo(InfraiException.UNREACHABLE));
    }

    @Test
    void errorWithoutAnEnvelopeKeepsItsStatus() throws Exception {
        try (RawAnswers queue = RawAnswers.of(502, "text/html", "<html>Bad Gateway</html>")) {
            InfraiClient behindProxy = clientOf(withInfrai(config, "baseUrl", queue.url()));

            assertThatThrownBy(() -> behindProxy.publish(queue(), Map.of(), 0, key()).await().atMost(WAIT))
                    .isInstanceOfSatisfying(InfraiException.class, e -> {
                        assertThat(e.status()).isEqualTo(502);
                        assertThat(e.code()).isEqualTo("HTTP_502");
                    });
        }
    }

    @Test
    void rateLimitWithoutAnEnvelopeIsStillRateLimited() throws Exception {
        try (RawAnswers queue = RawAnswers.of(429, "text/plain", "slow down")) {
            InfraiClient limited = clientOf(withInfrai(config, "baseUrl", queue.url()));

            assertThatThrownBy(() -> limited.publish(queue(), Map.of(), 0, key()).await().atMost(WAIT))
                    .isInstanceOfSatisfying(InfraiRateLimitedException.class,
                            e -> assertThat(e.code()).isEqualTo("HTTP_429"));
        }
    }

    @Test
    void successThatIsNotAnEnvelopeFailsAsUnreachable() throws Exception {
        try (RawAnswers queue = RawAnswers.of(200, "text/html", "<html>captive portal</html>")) {
            InfraiClient misrouted = clientOf(withInfrai(config, "baseUrl", queue.url()));

            assertThatThrownBy(() -> misrouted.publish(queue(), Map.of(), 0, key()).await().atMost(WAIT))
                    .isInstanceOfSatisfying(InfraiException.class, e -> {
                        assertThat(e.code()).isEqualTo(InfraiException.UNREACHABLE);
                        assertThat(e.status()).isZero();
                    });
        }
    }

    @Test
    void publishSendsTheDocumentedRequest() throws Exception {
        try (RawAnswers queue = RawAnswers.of(200, "application/json",
                "{\"ok\": true, \"data\": {\"message_id\": \"m-1\", \"unknown_field\": 1}}")) {
            InfraiClient client = clientOf(withInfrai(config, "baseUrl", queue.url() + "/"));

            String messageId = client.publish("reminders", Map.of("reminder_id", 5), 42, "reminder:5:0:0")
                    .await().atMost(WAIT);

            assertThat(messageId).isEqualTo("m-1");
            assertThat(queue.lastPath()).isEqualTo("/v1/queue/publish");
            assertThat(queue.lastAuthorization()).isEqualTo("Bearer " + config.infrai().apiKey().orElse(""));
            assertThat(new JsonObject(queue.lastBody())).isEqualTo(new JsonObject(Map.of("queue", "reminders",
                    "body", Map.of("reminder_id", 5), "delay_seconds", 42, "idempotency_key", "reminder:5:0:0")));
        }
    }

    @Test
    void callWithoutAnAnswerWithinTheConfiguredTimeoutFailsAsUnreachable() {
        InfraiClient impatient = clientOf(withInfrai(config, "timeout", Duration.ofMillis(500)));
        emulator().publishLatency(Duration.ofSeconds(3));
        try {
            assertThatThrownBy(() -> impatient.publish(queue(), Map.of(), 0, key()).await().atMost(WAIT))
                    .isInstanceOfSatisfying(InfraiException.class, e -> {
                        assertThat(e.code()).isEqualTo(InfraiException.UNREACHABLE);
                        assertThat(e.status()).isZero();
                    });
        } finally {
            emulator().publishLatency(Duration.ZERO);
        }
    }

    @Test
    void consumeAckAndNackRoundTrip() {
        String queue = queue();
        infrai.publish(queue, Map.of("reminder_id", 7), 0, key()).await().atMost(WAIT);

        List<ConsumedMessage> first = infrai.consume(queue, 10).await().atMost(WAIT);
        assertThat(first).singleElement().satisfies(message -> {
            assertThat(message.payload().path("reminder_id").asLong()).isEqualTo(7);
            assertThat(message.deliveryCount()).isEqualTo(1);
        });
        infrai.nack(queue, first.get(0).messageId()).await().atMost(WAIT);

        List<ConsumedMessage> again = infrai.consume(queue, 10).await().atMost(WAIT);
        assertThat(again).singleElement().satisfies(message -> assertThat(message.deliveryCount()).isEqualTo(2));
        infrai.ack(queue, again.get(0).messageId()).await().atMost(WAIT);

        assertThatThrownBy(() -> infrai.ack(queue, again.get(0).messageId()).await().atMost(WAIT))
                .isInstanceOfSatisfying(InfraiException.class,
                        e -> assertThat(e.code()).isEqualTo(InfraiException.MESSAGE_NOT_IN_FLIGHT));
        assertThat(infrai.consume(queue, 10).await().atMost(WAIT)).isEmpty();
    }

    @Test
    void pushSubscriptionIsRegistered() {
        String queue = queue();

        var subscription = infrai.subscribePush(queue, "https://tickler.example/q/token/reminders", "s3cret")
                .await().atMost(WAIT);

        assertThat(subscription.path("url").asText()).isEqualTo("https://tickler.example/q/token/reminders");
        assertThat(emulator().stats(queue).subscriptions()).isEqualTo(1);
    }

    @Test
    void usageIsRead() {
        assertThat(infrai.usage().await().atMost(WAIT).has("credit")).isTrue();
    }

    @Test
    void queueNamesFollowTheChannelConfiguration() {
        assertThat(infrai.queueFor("sms")).isEqualTo("sms-reminders");
        assertThat(infrai.queueFor("email")).isEqualTo("user-reminders");
        assertThat(infrai.queues()).containsExactlyInAnyOrder("user-reminders", "sms-reminders", "pushed-reminders");
    }

    /** The application's configuration with another tickler.infrai.timeout. */
    private InfraiClient clientOf(TicklerConfig changed) {
        return new InfraiClient(changed, pause, vertx, mapper);
    }

    private static TicklerConfig withInfrai(TicklerConfig config, String setting, Object value) {
        TicklerConfig.Infrai infrai = proxy(TicklerConfig.Infrai.class, config.infrai(), setting, value);
        return proxy(TicklerConfig.class, config, "infrai", infrai);
    }

    /** A server that answers every request with one status and body, as a proxy or a misrouted URL would. */
    private static final class RawAnswers implements AutoCloseable {

        private final HttpServer server;
        private volatile String lastPath;
        private volatile String lastAuthorization;
        private volatile String lastBody;

        private RawAnswers(int status, String contentType, String body) throws IOException {
            server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 10);
            server.createContext("/", exchange -> {
                try (exchange) {
                    lastPath = exchange.getRequestURI().getPath();
                    lastAuthorization = exchange.getRequestHeaders().getFirst("Authorization");
                    lastBody = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
                    byte[] answer = body.getBytes(StandardCharsets.UTF_8);
                    exchange.getResponseHeaders().add("Content-Type", contentType);
                    exchange.sendResponseHeaders(status, answer.length);
                    exchange.getResponseBody().write(answer);
                }
            });
            server.start();
        }

        static RawAnswers of(int status, String contentType, String body) throws IOException {
            return new RawAnswers(status, contentType, body);
        }

        String url() {
            return "http://127.0.0.1:" + server.getAddress().getPort();
        }

        String lastPath() {
            return lastPath;
        }

        String lastAuthorization() {
            return lastAuthorization;
        }

        String lastBody() {
            return lastBody;
        }

        @Override
        public void close() {
            server.stop(0);
        }
    }

    private static <T> T proxy(Class<T> type, T original, String method, Object answer) {
        return type.cast(Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] { type }, (self, called, args) -> {
            if (called.getName().equals(method) && called.getParameterCount() == 0) {
                return answer;
            }
            try {
                return called.invoke(original, args);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
        }));
    }

    private static String queue() {
        return "test-" + UUID.randomUUID();
    }

    private static String key() {
        return "test:" + UUID.randomUUID();
    }
}
