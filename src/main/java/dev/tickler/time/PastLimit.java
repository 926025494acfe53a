package dev.tickler.time;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import dev.tickler.config.TicklerConfig;

/**
 * How far in the past a reminder's fire_at may lie when it is registered or changed (tickler.api.max-past,
 * docs/contract.md#registration-api). A past fire_at is due at once, so one further back, a year typo above all, is
 * refused rather than sent at once.
 */
@ApplicationScoped
public class PastLimit {

    private final Clock clock;
    private final Duration maxPast;

    @Inject
    public PastLimit(Clock clock, TicklerConfig config) {
        this(clock, config.api().maxPast());
    }

    PastLimit(Clock clock, Duration maxPast) {
        this.clock = clock;
        this.maxPast = maxPast;
    }

    /** What is wrong with a fire_at further back than the limit allows; empty when it is not. */
    public Optional<String> problem(Instant fireAt) {
        Instant now = clock.instant();
        if (!fireAt.isBefore(now.minus(maxPast))) {
            return Optional.empty();
        }
        return Optional.of("must lie at most " + maxPast + " in the past (tickler.api.max-past), as a past fire_at is"
                + " sent at once; this one lies " + describe(Duration.between(fireAt, now)) + " back");
    }

    private static String describe(Duration ago) {
        return ago.toDays() >= 2 ? ago.toDays() + " days" : ago.toSeconds() + " s";
    }
}
