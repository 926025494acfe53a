package dev.tickler.emulator;

import java.time.Duration;
import java.util.Objects;

import io.vertx.core.net.KeyCertOptions;

/**
 * Settings of an {@link InfraiEmulator}. Start from {@link #defaults()} and adjust with the {@code withX} methods.
 *
 * @param port                 port to bind on 127.0.0.1; 0 picks any free port
 * @param apiKey               bearer key every request must carry; {@code null} accepts requests without one
 * @param lease                how long a consumed message stays in flight before it becomes ready again
 * @param pushRetryBase        backoff after the first failed push; doubled for each further failure
 * @param pushRetryMax         upper bound of the push backoff
 * @param pushTimeout          how long a push may take to connect and to answer before it counts as failed
 * @param maxOutstandingPushes how many messages may be pushed at once across all queues
 * @param bareBodyPush         push the published body as is instead of the {@code message_id}/{@code payload} envelope
 * @param tls                  the server's key and certificate, to serve the API over HTTPS as Infrai does;
 *                             {@code null} serves plain HTTP
 */
public record EmulatorOptions(int port, String apiKey, Duration lease, Duration pushRetryBase,
        Duration pushRetryMax, Duration pushTimeout, int maxOutstandingPushes, boolean bareBodyPush,
        KeyCertOptions tls) {

    public EmulatorOptions {
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("port must be between 0 and 65535");
        }
        requirePositive(lease, "lease");
        requirePositive(pushRetryBase, "pushRetryBase");
        requirePositive(pushRetryMax, "pushRetryMax");
        requirePositive(pushTimeout, "pushTimeout");
        if (maxOutstandingPushes < 1) {
            throw new IllegalArgumentException("maxOutstandingPushes must be at least 1");
        }
    }

    public static EmulatorOptions defaults() {
        return new EmulatorOptions(0, null, Duration.ofSeconds(300), Duration.ofSeconds(1), Duration.ofSeconds(60),
                Duration.ofSeconds(10), 256, false, null);
    }

    public EmulatorOptions withPort(int port) {
        return new EmulatorOptions(port, apiKey, lease, pushRetryBase, pushRetryMax, pushTimeout, maxOutstandingPushes,
                bareBodyPush, tls);
    }

    public EmulatorOptions withApiKey(String apiKey) {
        return new EmulatorOptions(port, apiKey, lease, pushRetryBase, pushRetryMax, pushTimeout, maxOutstandingPushes,
                bareBodyPush, tls);
    }

    public EmulatorOptions withLease(Duration lease) {
        return new EmulatorOptions(port, apiKey, lease, pushRetryBase, pushRetryMax, pushTimeout, maxOutstandingPushes,
                bareBodyPush, tls);
    }

    public EmulatorOptions withPushRetryBase(Duration pushRetryBase) {
        return new EmulatorOptions(port, apiKey, lease, pushRetryBase, pushRetryMax, pushTimeout, maxOutstandingPushes,
                bareBodyPush, tls);
    }

    public EmulatorOptions withPushRetryMax(Duration pushRetryMax) {
        return new EmulatorOptions(port, apiKey, lease, pushRetryBase, pushRetryMax, pushTimeout, maxOutstandingPushes,
                bareBodyPush, tls);
    }

    public EmulatorOptions withPushTimeout(Duration pushTimeout) {
        return new EmulatorOptions(port, apiKey, lease, pushRetryBase, pushRetryMax, pushTimeout, maxOutstandingPushes,
                bareBodyPush, tls);
    }

    public EmulatorOptions withMaxOutstandingPushes(int maxOutstandingPushes) {
        return new EmulatorOptions(port, apiKey, lease, pushRetryBase, pushRetryMax, pushTimeout, maxOutstandingPushes,
                bareBodyPush, tls);
    }

    public EmulatorOptions withBareBodyPush(boolean bareBodyPush) {
        return new EmulatorOptions(port, apiKey, lease, pushRetryBase, pushRetryMax, pushTimeout, maxOutstandingPushes,
                bareBodyPush, tls);
    }

    public EmulatorOptions withTls(KeyCertOptions tls) {
        return new EmulatorOptions(port, apiKey, lease, pushRetryBase, pushRetryMax, pushTimeout, maxOutstandingPushes,
                bareBodyPush, tls);
    }

    private static void requirePositive(Duration duration, String name) {
        Objects.requireNonNull(duration, name);
        if (duration.isNegative() || duration.isZero()) {
            throw new IllegalArgumentException(name + " must be positive");
        }
    }
}
