package dev.tickler.callback;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import jakarta.enterprise.context.ApplicationScoped;

import org.jboss.logging.Logger;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;

import dev.tickler.config.TicklerConfig;
import dev.tickler.observability.FirstRequest;
import dev.tickler.security.TenantCallbacks;

/**
 * The callbacks' meters (docs/operating.md, "Metrics"): tries by tenant and outcome, and per tenant the age of its
 * oldest undelivered event. The tenant tag is one of the tenants with a callback URL, so the series stay bounded by the
 * configuration. The age is a whole-table figure: like the reminders' gauges it is refreshed only where
 * tickler.metrics.table-statistics is on, and appears with its first refresh.
 */
@ApplicationScoped
public class CallbackMeters {

    private static final Logger LOG = Logger.getLogger(CallbackMeters.class);

    private final MeterRegistry registry;
    private final CallbackRepository repository;
    private final TenantCallbacks callbacks;
    private final Clock clock;
    private final Duration retention;
    private final boolean tableStatistics;
    private final Map<String, Counter> tries = new ConcurrentHashMap<>();
    private final Map<String, AtomicLong> oldestUndelivered = new ConcurrentHashMap<>();

    public CallbackMeters(MeterRegistry registry, CallbackRepository repository, TenantCallbacks callbacks, Clock clock,
            TicklerConfig config) {
        this.registry = registry;
        this.repository = repository;
        this.callbacks = callbacks;
        this.clock = clock;
        this.retention = config.callbacks().retention();
        this.tableStatistics = config.metrics().tableStatistics();
        // the delivered series of every tenant is there from the start, so a rate over it has a series to read
        callbacks.tenants().forEach(tenant -> tries(tenant, TryOutcome.Kind.DELIVERED));
    }

    void tried(String tenant, TryOutcome.Kind outcome) {
        tries(tenant, outcome).increment();
    }

    private Counter tries(String tenant, TryOutcome.Kind outcome) {
        String tag = callbacks.of(tenant).isPresent() ? tenant : "other";
        return tries.computeIfAbsent(tag + '\n' + outcome.label(), key -> Counter.builder("tickler.callbacks")
                .tag("tenant", tag).tag("outcome", outcome.label())
                .description("Tries of delivery callbacks by tenant and outcome; given_up counts events whose retention"
                        + " ended undelivered")
                .register(registry));
    }

    @Scheduled(identity = "callback-gauges", every = "${tickler.metrics.refresh:15s}", delayed = "1s",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP, skipExecutionIf = FirstRequest.NotYet.class)
    Uni<Void> refresh() {
        if (!tableStatistics || !callbacks.any()) {
            return Uni.createFrom().voidItem();
        }
        Instant now = clock.instant();
        return Multi.createFrom().iterable(callbacks.tenants())
                .onItem().transformToUniAndConcatenate(tenant -> repository.oldestUndelivered(tenant,
                        now.minus(retention)).invoke(oldest -> oldestUndelivered(tenant).set(
                                oldest.map(since -> Math.max(0, Duration.between(since, now).toSeconds())).orElse(0L))))
                .collect().last()
                .replaceWithVoid()
                .onFailure().recoverWithUni(failure -> {
                    LOG.warnf("metrics refresh of the oldest undelivered callbacks failed: %s", failure.getMessage());
                    return Uni.createFrom().voidItem();
                });
    }

    private AtomicLong oldestUndelivered(String tenant) {
        return oldestUndelivered.computeIfAbsent(tenant, name -> {
            AtomicLong seconds = new AtomicLong();
            Gauge.builder("tickler.callbacks.oldest.undelivered.seconds", seconds, AtomicLong::get).tag("tenant", name)
                    .description("Age of the tenant's oldest callback event not yet delivered and still being tried"
                            + " (0 when none)")
                    .register(registry);
            return seconds;
        });
    }
}
