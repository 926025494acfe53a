package dev.tickler.testing;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

import jakarta.annotation.Priority;
import jakarta.enterprise.inject.Alternative;
import jakarta.inject.Singleton;

/** The application's clock in tests: real time plus an offset a test can move, instead of waiting days. */
@Alternative
@Priority(1)
@Singleton
public class MovableClock extends Clock {

    private volatile Duration offset = Duration.ZERO;

    public void moveBy(Duration by) {
        offset = offset.plus(by);
    }

    /** From now on the clock reads about {@code instant} (and runs on from there), whatever today's date is. */
    public void setTo(Instant instant) {
        offset = Duration.between(Instant.now(), instant);
    }

    public void reset() {
        offset = Duration.ZERO;
    }

    @Override
    public Instant instant() {
        return Instant.now().plus(offset);
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        throw new UnsupportedOperationException("the application reads the clock in UTC only");
    }
}
