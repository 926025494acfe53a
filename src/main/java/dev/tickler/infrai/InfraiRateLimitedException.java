package dev.tickler.infrai;

import java.time.Duration;

/** Infrai answered 429; it says how long to wait in Retry-After. */
public class InfraiRateLimitedException extends InfraiException {

    private final Duration retryAfter;

    public InfraiRateLimitedException(String code, String message, Duration retryAfter) {
        super(429, code, message);
        this.retryAfter = retryAfter;
    }

    public Duration retryAfter() {
        return retryAfter;
    }
}
