package dev.tickler.infrai;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;

import javax.net.ssl.SSLHandshakeException;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.ObjectMapper;

import io.vertx.core.Vertx;

import dev.tickler.emulator.EmulatorOptions;
import dev.tickler.emulator.InfraiEmulator;
import dev.tickler.infrai.InfraiModels.PublishRequest;
import dev.tickler.testing.LoopbackCertificate;

/**
 * The publish client over TLS checks the queue's certificate as the REST client does, against the JVM's trust store:
 * a certificate nobody vouches for ends the call in the handshake, before a byte of the request is sent. That the
 * trusted way works end to end is {@link QueueOverTlsIT}'s.
 */
class PublishClientTlsTest {

    private static final Duration WAIT = Duration.ofSeconds(10);

    private final Vertx vertx = Vertx.vertx();
    private final InfraiEmulator queue = InfraiEmulator.start(
            EmulatorOptions.defaults().withTls(LoopbackCertificate.create().serverOptions()));

    @AfterEach
    void close() {
        queue.close();
        vertx.close().toCompletionStage().toCompletableFuture().join();
    }

    @Test
    void queueWhoseCertificateTheJvmDoesNotTrustIsRefusedInTheHandshake() {
        PublishClient client = new PublishClient(vertx, new ObjectMapper(), queue.baseUrl(), WAIT, WAIT, 2);

        assertThat(queue.baseUrl()).startsWith("https://");
        assertThatThrownBy(() -> client.publish("Bearer key", new PublishRequest("q", Map.of("reminder_id", 1), 60,
                "key-1")).await().atMost(WAIT)).hasCauseInstanceOf(SSLHandshakeException.class)
                .rootCause().hasMessageContaining("unable to find valid certification path");
        assertThat(queue.requests()).isZero();
    }
}
