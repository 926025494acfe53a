package dev.tickler.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.ConnectException;
import java.security.cert.CertificateException;
import java.util.concurrent.CompletionException;

import javax.net.ssl.SSLHandshakeException;

import org.junit.jupiter.api.Test;

class TransportFailureTest {

    @Test
    void handshakeFailureSaysWhatTheCertificateLacked() {
        SSLHandshakeException handshake = new SSLHandshakeException("Failed to create SSL connection");
        handshake.initCause(new CertificateException("No subject alternative DNS name matching infrai.example found."));

        assertThat(TransportFailure.describe(new CompletionException(handshake))).isEqualTo(
                "javax.net.ssl.SSLHandshakeException: Failed to create SSL connection"
                        + " (No subject alternative DNS name matching infrai.example found.)");
    }

    @Test
    void causeThatSaysNothingNewIsNotRepeated() {
        ConnectException refused = new ConnectException("Connection refused: /127.0.0.1:9");

        assertThat(TransportFailure.describe(new CompletionException(refused)))
                .isEqualTo("java.net.ConnectException: Connection refused: /127.0.0.1:9");
        assertThat(TransportFailure.describe(refused)).isEqualTo("Connection refused: /127.0.0.1:9");
    }

    @Test
    void failureWithoutMessageIsNamedByItsKind() {
        assertThat(TransportFailure.describe(new IllegalStateException())).isEqualTo("IllegalStateException");
    }
}
