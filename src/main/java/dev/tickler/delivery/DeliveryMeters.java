package dev.tickler.delivery;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumMap;
import java.util.Map;

import jakarta.enterprise.context.ApplicationScoped;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

/**
 * The delivery's own meters (docs/operating.md, "Metrics"): pushes that claimed nothing by reason, the poison guard's
 * give-ups, the dispatch lag, and the notifier throttle's gauges.
 */
@ApplicationScoped
class DeliveryMeters {

    /** The timer holds nanoseconds in a long: a lag beyond about 292 years is not a lag worth a sample. */
    private static final Duration LONGEST_RECORDABLE_LAG = Duration.ofNanos(Long.MAX_VALUE);

    private final Map<DeliveryIntake.Ignored, Counter> ignoredPushes = new EnumMap<>(DeliveryIntake.Ignored.class);
    private final Counter poisoned;
    private final Timer dispatchLag;
    private final MeterRegistry registry;
    private final Clock clock;

    DeliveryMeters(MeterRegistry registry, Clock clock) {
        this.registry = registry;
        this.clock = clock;
        for (DeliveryIntake.Ignored reason : DeliveryIntake.Ignored.values()) {
            ignoredPushes.put(reason, Counter.builder("tickler.push.ignored").tag("reason", reason.label())
                    .description("Pushes that claimed nothing, by reason").register(registry));
        }
        this.poisoned = Counter.builder("tickler.reconcile.gave.up")
                .description("Reminders failed by the poison guard: taken over too often without settling")
                .register(registry);
        this.dispatchLag = Timer.builder("tickler.dispatch.lag")
                .description("From the send time a reminder had (its fire_at, or a deferral's or a retry's) to the"
                        + " notifier's 2xx")
                .publishPercentileHistogram()
                .minimumExpectedValue(Duration.ofMillis(10))
                .maximumExpectedValue(Duration.ofHours(1))
                .register(registry);
    }

    void ignored(DeliveryIntake.Ignored reason) {
        ignoredPushes.get(reason).increment();
    }

    void gaveUp() {
        poisoned.increment();
    }

    /** A send's lag from the time it was due. */
    void sent(Instant dueAt) {
        Duration lag = Duration.between(dueAt, clock.instant());
        if (!lag.isNegative() && lag.compareTo(LONGEST_RECORDABLE_LAG) <= 0) {
            dispatchLag.record(lag);
        }
    }

    void watch(NotifierThrottle throttle) {
        Gauge.builder("tickler.notify.concurrency.limit", throttle, NotifierThrottle::concurrencyLimit)
                .description("Current bound on in-flight notifier calls; follows the provider's latency")
                .register(registry);
        Gauge.builder("tickler.notify.in.flight", throttle, NotifierThrottle::inFlight)
                .description("Notifier calls in flight now, with those waiting for their turn in the pace")
                .register(registry);
        Gauge.builder("tickler.notify.pace", throttle, NotifierThrottle::pacePerSecond)
                .description("Sends a second this instance allows itself; learned from 429s, capped by "
                        + "tickler.notify.rate-limit, +Inf while unpaced")
                .register(registry);
    }
}
