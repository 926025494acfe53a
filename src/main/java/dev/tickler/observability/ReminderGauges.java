package dev.tickler.observability;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumMap;
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

import dev.tickler.infrai.InfraiClient;
import dev.tickler.ledger.ReminderState;

/**
 * Gauges that need a query (docs/contract.md#observability): reminders by state (failed is the dead letter), the age of
 * the oldest overdue undelivered reminder, and the gap between the queue's delayed messages and the handed-off rows
 * that should be waiting in it. Refreshed every tickler.metrics.refresh instead of on every scrape, from the first
 * request on: a cold instance asks neither Postgres nor Infrai anything before it serves.
 */
@ApplicationScoped
public class ReminderGauges {

    private static final Logger LOG = Logger.getLogger(ReminderGauges.class);

    private final ReminderStatistics statistics;
    private final InfraiClient infrai;
    private final Clock clock;
    private final MeterRegistry registry;
    private final Map<ReminderState, AtomicLong> byState = new EnumMap<>(ReminderState.class);
    private final Map<String, AtomicLong> delayedByQueue = new ConcurrentHashMap<>();
    private final Map<String, Counter> refreshFailures = new ConcurrentHashMap<>();
    private final AtomicLong oldestOverdueSeconds = new AtomicLong();
    private final AtomicLong handedOffAhead = new AtomicLong();
    private final AtomicLong queueGap = new AtomicLong();

    public ReminderGauges(ReminderStatistics statistics, InfraiClient infrai, Clock clock, MeterRegistry registry) {
        this.statistics = statistics;
        this.infrai = infrai;
        this.clock = clock;
        this.registry = registry;
        for (ReminderState state : ReminderState.values()) {
            AtomicLong count = new AtomicLong();
            byState.put(state, count);
            Gauge.builder("tickler.reminders", count, AtomicLong::get).tag("state", state.wireName())
                    .description("Reminders by state; failed is the dead letter").register(registry);
        }
        Gauge.builder("tickler.reminders.oldest.overdue.seconds", oldestOverdueSeconds, AtomicLong::get)
                .description("Age of the oldest reminder past fire_at and not yet delivered (0 when none)")
                .register(registry);
        Gauge.builder("tickler.queue.handed.off.ahead", handedOffAhead, AtomicLong::get)
                .description("Handed-off reminders not yet due: what the queue should hold as delayed")
                .register(registry);
        Gauge.builder("tickler.queue.delayed.gap", queueGap, AtomicLong::get)
                .description("Handed-off reminders not yet due minus the queue's delayed_count; grows when messages go missing")
                .register(registry);
    }

    @Scheduled(identity = "reminder-gauges", every = "${tickler.metrics.refresh:15s}", delayed = "1s",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP, skipExecutionIf = FirstRequest.NotYet.class)
    Uni<Void> refresh() {
        Instant now = clock.instant();
        return orKeepLast("reminders by state", countByState())
                .chain(() -> orKeepLast("oldest overdue", oldestOverdue(now)))
                .chain(() -> orKeepLast("queue gap", queueGap(now)));
    }

    /** One gauge's refresh failing leaves its last value and the others' refreshes alone; it is logged and counted. */
    private Uni<Void> orKeepLast(String part, Uni<Void> refresh) {
        return refresh.onFailure().recoverWithUni(failure -> {
            LOG.warnf("metrics refresh of %s failed: %s", part, failure.getMessage());
            refreshFailures.computeIfAbsent(part, name -> Counter.builder("tickler.metrics.refresh.failures")
                    .tag("part", name).description("Gauge refreshes that failed; the gauge keeps its last value")
                    .register(registry)).increment();
            return Uni.createFrom().voidItem();
        });
    }

    private Uni<Void> countByState() {
        return statistics.countByState()
                .invoke(counts -> counts.forEach((state, count) -> byState.get(state).set(count)))
                .replaceWithVoid();
    }

    private Uni<Void> oldestOverdue(Instant now) {
        return statistics.oldestOverdue(now)
                .invoke(oldest -> oldestOverdueSeconds.set(oldest.map(fireAt -> Duration.between(fireAt, now).toSeconds())
                        .orElse(0L)))
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
        }).replaceWithVoid();
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
