package dev.tickler.http;

import java.time.Duration;

/** The Retry-After header as Tickler reads it from Infrai and from the notifier. */
public final class RetryAfter {

    private RetryAfter() {
    }

    /** The wait in seconds; null when the header is absent or an HTTP-date, so the caller's own backoff applies. */
    public static Duration parse(String headerValue) {
        if (headerValue == null) {
            return null;
        }
        try {
            return Duration.ofSeconds(Math.max(0, Long.parseLong(headerValue.trim())));
        } catch (NumberFormatException httpDate) {
            return null;
        }
    }
}
