package dev.tickler.delivery;

import java.time.Duration;

import dev.tickler.config.TicklerConfig;

/**
 * The retry gap (docs/contract.md#delivery-to-the-notifier): min(backoff-max, backoff-base × 2^(attempts − 1)); the
 * first retry waits backoff-base. The callbacks' pauses follow the same rule from a base of 1 s.
 */
public final class RetryPolicy {

    private final Duration base;
    private final Duration max;

    public RetryPolicy(Duration base, Duration max) {
        this.base = base;
        this.max = max;
    }

    static RetryPolicy of(TicklerConfig.Notify config) {
        return new RetryPolicy(config.backoffBase(), config.backoffMax());
    }

    public Duration backoffAfter(int attemptsMade) {
        int doublings = Math.min(30, Math.max(0, attemptsMade - 1));
        Duration gap = base.multipliedBy(1L << doublings);
        return gap.compareTo(max) > 0 ? max : gap;
    }
}
