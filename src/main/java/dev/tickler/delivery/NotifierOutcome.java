package dev.tickler.delivery;

import java.time.Duration;

/** How one notifier call ended, in the terms of SPEC §5. */
sealed interface NotifierOutcome {

    /** 2xx. */
    record Delivered(int status) implements NotifierOutcome {
    }

    /** 429, 408, 5xx, timeout or connection error; retryAfter is the notifier's own wait when it gave one. */
    record Retryable(String error, Duration retryAfter, boolean rateLimited) implements NotifierOutcome {
    }

    /** Any other status: retrying cannot help. */
    record Permanent(String error) implements NotifierOutcome {
    }
}
