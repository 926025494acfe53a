package dev.tickler.delivery;

import java.time.Duration;

/**
 * How one notifier call ended, in the terms of docs/contract.md#delivery-to-the-notifier, and how long the provider
 * took.
 */
sealed interface NotifierOutcome {

    /** For the timeline: the HTTP status as a JSON number, or "timeout" / "connection" as a JSON string. */
    String statusJson();

    long latencyMillis();

    /** 2xx. */
    record Delivered(int status, long latencyMillis) implements NotifierOutcome {

        @Override
        public String statusJson() {
            return Integer.toString(status);
        }
    }

    /**
     * 429, 408, 5xx, timeout or connection error; retryAfter is the notifier's own wait when it gave one. The status
     * is the HTTP status, or null when no answer came (then {@code timedOut} tells which).
     */
    record Retryable(Integer status, boolean timedOut, String error, Duration retryAfter, boolean rateLimited,
            long latencyMillis) implements NotifierOutcome {

        @Override
        public String statusJson() {
            return status != null ? status.toString() : timedOut ? "\"timeout\"" : "\"connection\"";
        }
    }

    /** No call was made: the claim's lease could not be kept, so another delivery may hold the reminder now. */
    record Withheld() implements NotifierOutcome {

        @Override
        public String statusJson() {
            throw new IllegalStateException("a withheld send made no call and has no status");
        }

        @Override
        public long latencyMillis() {
            return 0;
        }
    }

    NotifierOutcome WITHHELD = new Withheld();

    /** Any other status: retrying cannot help. */
    record Permanent(int status, String error, long latencyMillis) implements NotifierOutcome {

        @Override
        public String statusJson() {
            return Integer.toString(status);
        }
    }
}
