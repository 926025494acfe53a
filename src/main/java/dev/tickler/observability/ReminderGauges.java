package dev.tickler.observability;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
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
import dev.tickler.infrai.InfraiClient;
import dev.tickler.ledger.ReminderState;

/**
 * Gauges that need a query (docs/contract.md#observability): reminders by state (failed is the dead letter), the age of
 * the oldest overdue undelivered reminder, and the gap between the queue's delayed messages and the handed-off rows
 * that should be waiting in it. Refreshed every tickler.metrics.refresh instead of on every scrape, from the first
 * request on: a cold instance asks neither Postgres nor Infrai anything before it serves.
 * <p>
 * They describe the whole table, not this instance, so only the instances with tickler.metrics.table-statistics on
 * compute them (the sweeper of the deployments); a serving fleet with it off adds no scans as it scales out. Each gauge
 * appears with its first successful refresh, never as a 0 that nobody measured: a restarted instance does not look like
 * a drop and a rise of the dead letter. The numbers come from {@link ReminderStatistics}, the one place to change when
 * they are read from somewhere cheaper than the table.
 */
@ApplicationScoped
public class ReminderGauges {

    private static final Logger LOG = Logger.getLogger(ReminderGauges.class);
    /** The refreshes, each failing on its own; their names are the {@code part} tag of the failure counter. */
    private static final List<String> PARTS = List.of("reminders by state", "oldest overdue", "queue gap");

    private final ReminderStatistics statistics;
    private final InfraiClient infrai;
    private final Clock clock;
    private final MeterRegistry registry;
    private final boolean enabled;
    private final Map<ReminderState, AtomicLong> byState = new ConcurrentHashMap<>();
    private final Map<String, AtomicLong> delayedByQueue = new ConcurrentHashMap<>();
    private final Map<String, Counter> refreshFailures = new ConcurrentHashMap<>();
    private final AtomicLong oldestOverdueSeconds = new AtomicLong();
    private final AtomicLong handedOffAhead = new AtomicLong();
    private final AtomicLong queueGap = new AtomicLong();

    public ReminderGauges(ReminderStatistics statistics, InfraiClient infrai, Clock clock, MeterRegistry registry,
            TicklerConfig config) {
        this.statistics = statistics;
        this.infrai = infrai;
        this.clock = clock;
        this.registry = registry;
        this.enabled = config.metrics().tableStatistics();
        if (enabled) {
            // present at 0 from the start, so an alert on their increase has a series to read before the first failure
            for (String part : PARTS) {
                refreshFailures(part);
            }
        }
    }

    @Scheduled(identity = "reminder-gauges", every = "${tickler.metrics.refresh:15s}", delayed = "1s",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP, skipExecutionIf = FirstRequest.NotYet.class)
    Uni<Void> refresh() {
        if (!enabled) {
            return Uni.createFrom().voidItem();
        }
        Instant now = clock.instant();
        return orKeepLast(PARTS.get(0), countByState())
                .chain(() -> orKeepLast(PARTS.get(1), oldestOverdue(now)))
                .chain(() -> orKeepLast(PARTS.get(2), queueGap(now)));
    }

    /** One gauge's refresh failing leaves its last value and the others' refreshes alone; it is logged and counted. */
    private Uni<Void> orKeepLast(String part, Uni<Void> refresh) {
        return refresh.onFailure().recoverWithUni(failure -> {
            LOG.warnf("metrics refresh of %s failed: %s", part, failure.getMessage());
            refreshFailures(part).increment();
            return Uni.createFrom().voidItem();
        });
    }

    private Counter refreshFailures(String part) {
        return refreshFailures.computeIfAbsent(part, name -> Counter.builder("tickler.metrics.refresh.failures")
                .tag("part", name).description("Gauge refreshes that failed; the gauge keeps its last value")
                .register(registry));
    }

    private Uni<Void> countByState() {
        return statistics.countByState()
                .invoke(counts -> counts.forEach((state, count) -> byStateGauge(state).set(count)))
                .replaceWithVoid();
    }

    private Uni<Void> oldestOverdue(Instant now) {
        return statistics.oldestOverdue(now)
                .invoke(oldest -> {
                    oldestOverdueSeconds.set(oldest.map(fireAt -> Duration.between(fireAt, now).toSeconds()).orElse(0L));
                    registerOnce("tickler.reminders.oldest.overdue.seconds", oldestOverdueSeconds,
                            "Age of the oldest reminder past fire_at and not yet delivered (0 when none)");
                })
                .replaceWithVoid();
    }

    private Uni<Void> queueGap(Instant now) {
        Uni<List<Long>> delayed = Multi.createFrom().iterable(infrai.queues())
                .onItem().transformToUniAndConcatenate(queue -> infrai.stats(queue).map(stats -> {
                    delayedGauge(queue).set(stats.delayedCount());
                    return stats.delayedCount();
                }))
                .collect().asList();
        return Uni.combine().all().unis(statistics.handedOffAhead(now), delayed).asTuple().invoke(result -> {
            handedOffAhead.set(result.getItem1());
            queueGap.set(result.getItem1() - result.getItem2().stream().mapToLong(Long::longValue).sum());
            registerOnce("tickler.queue.handed.off.ahead", handedOffAhead,
                    "Handed-off reminders not yet due: what the queue should hold as delayed");
            registerOnce("tickler.queue.delayed.gap", queueGap,
                    "Handed-off reminders not yet due minus the queue's delayed_count; grows when messages go missing");
        }).replaceWithVoid();
    }

    private AtomicLong byStateGauge(ReminderState state) {
        return byState.computeIfAbsent(state, known -> {
            AtomicLong count = new AtomicLong();
            Gauge.builder("tickler.reminders", count, AtomicLong::get).tag("state", known.wireName())
                    .description("Reminders by state; failed is the dead letter").register(registry);
            return count;
        });
    }

    /** Registering the same name twice gives back the first gauge, so this is safe on every refresh. */
    private void registerOnce(String name, AtomicLong value, String description) {
        Gauge.builder(name, value, AtomicLong::get).description(description).register(registry);
    }

    private AtomicLong delayedGauge(String queue) {
        return delayedByQueue.computeIfAbsent(queue, name -> {
            AtomicLong delayed = new AtomicLong();
            Gauge.builder("tickler.queue.delayed", delayed, AtomicLong::get).tag("queue", name)
                    .description("The queue's own delayed_count").register(registry);
            return delayed;
        });
    }
}
