package dev.tickler.delivery;

import java.time.Clock;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.enterprise.context.ApplicationScoped;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

import dev.tickler.security.TenantTags;

/**
 * The delivery's own meters (docs/operating.md, "Metrics"): pushes that claimed nothing by reason, the poison guard's
 * give-ups, settled deliveries and the dispatch lag by tenant, and the notifier throttle's gauges.
 */
@ApplicationScoped
class DeliveryMeters {

    /** The timer holds nanoseconds in a long: a lag beyond about 292 years is not a lag worth a sample. */
    private static final Duration LONGEST_RECORDABLE_LAG = Duration.ofNanos(Long.MAX_VALUE);

    private final Map<DeliveryIntake.Ignored, Counter> ignoredPushes = new EnumMap<>(DeliveryIntake.Ignored.class);
    private final Counter poisoned;
    private final Map<String, Timer> dispatchLagByTag = new ConcurrentHashMap<>();
    private final Map<String, Counter> settledByTags = new ConcurrentHashMap<>();
    private final MeterRegistry registry;
    private final TenantTags tenantTags;
    private final Clock clock;

    DeliveryMeters(MeterRegistry registry, TenantTags tenantTags, Clock clock) {
        this.registry = registry;
        this.tenantTags = tenantTags;
        this.clock = clock;
        for (DeliveryIntake.Ignored reason : DeliveryIntake.Ignored.values()) {
            ignoredPushes.put(reason, Counter.builder("tickler.push.ignored").tag("reason", reason.label())
                    .description("Pushes that claimed nothing, by reason").register(registry));
        }
        this.poisoned = Counter.builder("tickler.reconcile.gave.up")
                .description("Reminders failed by the poison guard: taken over too often without settling")
                .register(registry);
        // the lag of every configured tenant is there from the start, so dashboards and alerts see it before a send
        tenantTags.configured().forEach(tenant -> dispatchLagByTag.put(tenant, dispatchLag(tenant)));
    }

    void ignored(DeliveryIntake.Ignored reason) {
        ignoredPushes.get(reason).increment();
    }

    void gaveUp() {
        poisoned.increment();
    }

    /** How a delivery this instance settled ended; its label is the {@code outcome} tag. */
    enum Outcome {
        SENT, FAILED, SKIPPED, EXPIRED;

        String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** A settled delivery by tenant and outcome, and for a send its lag from the time it was due. */
    void settled(ClaimedReminder claim, Outcome outcome) {
        String tenant = tenantTags.of(claim.tenant());
        settledByTags.computeIfAbsent(tenant + '\n' + outcome.label(), tags -> Counter.builder("tickler.deliveries")
                .tag("tenant", tenant).tag("outcome", outcome.label())
                .description("Deliveries settled by this instance, by tenant and outcome").register(registry))
                .increment();
        if (outcome != Outcome.SENT) {
            return;
        }
        Duration lag = Duration.between(claim.dueAt(), clock.instant());
        if (!lag.isNegative() && lag.compareTo(LONGEST_RECORDABLE_LAG) <= 0) {
            dispatchLagByTag.computeIfAbsent(tenant, this::dispatchLag).record(lag);
        }
    }

    private Timer dispatchLag(String tenant) {
        return Timer.builder("tickler.dispatch.lag").tag("tenant", tenant)
                .description("From the send time a reminder had (its fire_at, or a deferral's or a retry's) to the"
                        + " notifier's 2xx")
                .publishPercentileHistogram()
                .minimumExpectedValue(Duration.ofMillis(10))
                .maximumExpectedValue(Duration.ofHours(1))
                .register(registry);
    }

    void watch(NotifierThrottle throttle) {
        Gauge.builder("tickler.delivery.waiting", throttle, NotifierThrottle::waitingForTurns)
                .description("Held deliveries waiting for their tenant's turn at the notifier")
                .register(registry);
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
        Gauge.builder("tickler.notify.local.delay", throttle, NotifierThrottle::localDelaySeconds)
                .description("How late this instance ran its own timers in the last second while notifier calls were "
                        + "out: its own share of their latency, which cuts no concurrency")
                .baseUnit("seconds")
                .register(registry);
    }
}
