package dev.tickler.sweep;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiFunction;

import jakarta.enterprise.context.ApplicationScoped;

import org.jboss.logging.Logger;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.SqlConnection;

import dev.tickler.callback.CallbackRepository;
import dev.tickler.config.TicklerConfig;
import dev.tickler.delivery.DeliveryIntake;
import dev.tickler.handoff.HandOff;
import dev.tickler.ledger.ReminderLedger;
import dev.tickler.observability.ReminderStatistics;
import dev.tickler.publish.ReminderPublisher;
import dev.tickler.publish.Via;
import dev.tickler.schedule.ScheduleTopUp;
import dev.tickler.sweep.SweepRepository.ParkedPosition;
import dev.tickler.time.Pause;

/**
 * The sweep (docs/contract.md#sweep-and-reconcile): hand parked reminders that entered the window to the queue, deliver
 * again what was handed off and never came back or was claimed by an instance that died, and expire what can no longer
 * be sent in time. Safe to run from many instances at once; all its time comes from the injected clock.
 */
@ApplicationScoped
public class SweepService {

    private static final Logger LOG = Logger.getLogger(SweepService.class);
    /** Overdue reminders claimed at once; their sends are bounded by the notifier's own concurrency. */
    private static final int TAKE_OVERS_IN_FLIGHT = 128;
    /** Schedules topped up at once after their occurrences ended in a run. */
    private static final int FOLLOW_UPS_IN_FLIGHT = 8;
    /** Rows deleted per retention transaction: a millisecond or two of the database's time. */
    static final int RETENTION_BATCH = 200;
    /**
     * After each batch, retention rests this many times as long as the batch took: it takes at most a fiftieth of one
     * connection's time, and when the database is busy its batches slow down and its rests grow with them.
     */
    static final int RETENTION_REST_FACTOR = 49;

    private final SweepRepository repository;
    private final ReminderLedger ledger;
    private final HandOff handOff;
    private final DeliveryIntake delivery;
    private final ScheduleTopUp schedules;
    private final CallbackRepository callbacks;
    private final ReminderStatistics statistics;
    private final Clock clock;
    private final Pause pause;
    private final TicklerConfig.Sweep config;
    private final TicklerConfig.Retention retention;
    private final Duration callbackRetention;
    private final Counter retentionDeleted;
    private final Counter callbacksDeleted;
    private final MeterRegistry registry;
    private final Timer duration;
    private final Timer reconcileDuration;

    public SweepService(SweepRepository repository, ReminderLedger ledger, HandOff handOff, DeliveryIntake delivery,
            ScheduleTopUp schedules, CallbackRepository callbacks, ReminderStatistics statistics, Clock clock,
            Pause pause, TicklerConfig config, MeterRegistry registry) {
        this.repository = repository;
        this.statistics = statistics;
        this.ledger = ledger;
        this.handOff = handOff;
        this.delivery = delivery;
        this.schedules = schedules;
        this.callbacks = callbacks;
        this.pause = pause;
        this.clock = clock;
        this.config = config.sweep();
        this.retention = config.retention();
        this.callbackRetention = config.callbacks().retention();
        this.retentionDeleted = Counter.builder("tickler.retention.deleted")
                .description("Finished reminders deleted by retention").register(registry);
        this.callbacksDeleted = Counter.builder("tickler.callbacks.deleted")
                .description("Callback events deleted past tickler.callbacks.retention").register(registry);
        this.registry = registry;
        this.duration = Timer.builder("tickler.sweep.duration").description("Duration of sweep runs")
                .register(registry);
        this.reconcileDuration = Timer.builder("tickler.reconcile.duration")
                .description("Duration of reconcile passes").register(registry);
        requireWindowUnderQueueCeiling(this.config.window());
    }

    /** Refuses a window the queue could not honour, at start-up rather than at the first refused publish. */
    static void requireWindowUnderQueueCeiling(Duration window) {
        if (window.isNegative() || window.isZero() || window.compareTo(ReminderPublisher.QUEUE_CEILING) >= 0) {
            throw new IllegalStateException("tickler.sweep.window is " + window + "; it must be positive and under "
                    + "7 days (P7D), the queue's delay ceiling, e.g. the default P6D");
        }
    }

    public Uni<SweepReport> run() {
        Instant started = clock.instant();
        Instant deadline = started.plus(config.timeBudget());
        AtomicLong handedOff = new AtomicLong();
        AtomicLong failedPublish = new AtomicLong();
        AtomicLong reconciled = new AtomicLong();
        AtomicLong expired = new AtomicLong();
        AtomicLong deleted = new AtomicLong();
        AtomicLong callbacksGone = new AtomicLong();
        AtomicLong toppedUp = new AtomicLong();
        Set<Long> endedOccurrencesOf = ConcurrentHashMap.newKeySet();
        // expiry first: what can no longer be sent in time is neither handed off nor delivered again
        return expireWaiting(expired, endedOccurrencesOf)
                .chain(() -> handOffParked(ParkedPosition.START, deadline, handedOff, failedPublish,
                        endedOccurrencesOf))
                .chain(() -> followUp(endedOccurrencesOf))
                .chain(() -> reconcile(deadline, reconciled))
                // after expiry and reconcile, whose ends of occurrences the schedules have not followed up yet
                .chain(() -> schedules.backstop(deadline).invoke(toppedUp::set))
                .chain(() -> deleteExpired(retention.finished(), ledger::deleteFinished, deadline, deleted,
                        retentionDeleted))
                .chain(() -> deleteExpired(retention.failed(), ledger::deleteFailed, deadline, deleted,
                        retentionDeleted))
                .chain(() -> deleteExpired(callbackRetention, callbacks::deleteExpired, deadline, callbacksGone,
                        callbacksDeleted))
                // the state counts' deltas are folded here too, so they never pile up where no instance has the gauges on
                .chain(() -> statistics.countByState())
                .map(ignored -> {
                    long millis = Duration.between(started, clock.instant()).toMillis();
                    SweepReport report = new SweepReport(handedOff.get(), failedPublish.get(), reconciled.get(),
                            expired.get(), deleted.get(), toppedUp.get(), callbacksGone.get(), millis);
                    record(report);
                    return report;
                });
    }

    /**
     * The reconcile pass alone (docs/contract.md#sweep-and-reconcile): expiry, then what never came back or was claimed
     * by an instance that died. Run every tickler.reconcile.every, far more often than the sweep; index-only work when
     * nothing is due.
     */
    public Uni<ReconcileReport> reconcileNow() {
        Instant started = clock.instant();
        Instant deadline = started.plus(config.timeBudget());
        AtomicLong reconciled = new AtomicLong();
        AtomicLong expired = new AtomicLong();
        Set<Long> endedOccurrencesOf = ConcurrentHashMap.newKeySet();
        return expireWaiting(expired, endedOccurrencesOf)
                .chain(() -> followUp(endedOccurrencesOf))
                .chain(() -> reconcile(deadline, reconciled))
                .map(ignored -> {
                    ReconcileReport report = new ReconcileReport(reconciled.get(), expired.get(),
                            Duration.between(started, clock.instant()).toMillis());
                    record(report);
                    return report;
                });
    }

    /** Expires what can no longer be sent in time; notes the schedules whose occurrences it ended. */
    private Uni<Void> expireWaiting(AtomicLong expired, Set<Long> endedOccurrencesOf) {
        return ledger.expireWaiting(now()).invoke(scheduleIds -> {
            expired.set(scheduleIds.size());
            scheduleIds.stream().filter(Objects::nonNull).forEach(endedOccurrencesOf::add);
        }).replaceWithVoid();
    }

    /**
     * An occurrence that ended in this run (expired, or skipped or expired by quiet hours at hand-off) makes room for
     * its schedule's next one, after the run's own writes are committed; a follow-up never fails the run.
     */
    private Uni<Void> followUp(Set<Long> endedOccurrencesOf) {
        return handOff.followUp(endedOccurrencesOf);
    }

    /** One batch of the hand-off: how many rows it held, how many publishes failed, and where it ended. */
    private record Batch(int size, int failedPublishes, ParkedPosition last) {
    }

    /**
     * Batch after batch, each after the last one's final row, until a batch comes back short (nothing left in the
     * window) or the budget is spent: a row whose publish failed waits for the next run, and the rows behind it are
     * still handed off (docs/contract.md#sweep-and-reconcile). A full batch whose every publish failed means the
     * queue is down: the run stops there instead of trying every parked row once against it.
     */
    private Uni<Void> handOffParked(ParkedPosition after, Instant deadline, AtomicLong handedOff,
            AtomicLong failedPublish, Set<Long> endedOccurrencesOf) {
        return repository.inTransaction(connection -> handOffBatch(connection, after, handedOff, failedPublish,
                        endedOccurrencesOf))
                .chain(batch -> {
                    if (batch.size() < config.batchSize() || clock.instant().isAfter(deadline)) {
                        return Uni.createFrom().voidItem();
                    }
                    if (batch.failedPublishes() == batch.size()) {
                        LOG.warnf("sweep stopped handing off: all %d publishes of a batch failed; the rest wait for"
                                + " the next run", batch.size());
                        return Uni.createFrom().voidItem();
                    }
                    return handOffParked(batch.last(), deadline, handedOff, failedPublish, endedOccurrencesOf);
                });
    }

    /**
     * Locks one batch after the given position, publishes it with bounded concurrency, marks what was published, and
     * commits: the locks keep a racing sweep off these rows, and a row whose publish failed stays pending for the
     * next run under the same publish key.
     */
    private Uni<Batch> handOffBatch(SqlConnection connection, ParkedPosition after, AtomicLong handedOff,
            AtomicLong failedPublish, Set<Long> endedOccurrencesOf) {
        Instant now = now();
        return repository.lockDueParked(connection, now.plus(config.window()), after, config.batchSize())
                // each publish starts a trace of its own, linked to the registration's, whoever runs the sweep
                .chain(batch -> handOff.handOffLocked(connection, batch, Via.SWEEP)
                        .invoke(outcome -> {
                            handedOff.addAndGet(outcome.handedOff());
                            failedPublish.addAndGet(outcome.failedPublishes());
                            endedOccurrencesOf.addAll(outcome.endedOccurrencesOf());
                        })
                        .map(outcome -> new Batch(batch.size(), outcome.failedPublishes(),
                                batch.isEmpty() ? after : ParkedPosition.of(batch.get(batch.size() - 1)))));
    }

    /**
     * Retention (docs/contract.md#retention): batch after batch of finished reminders (or callback events) past their
     * keep-time, each batch a short transaction of its own that skips rows someone holds, with a rest after each, until
     * a batch comes back short or the budget is spent. A keep-time of zero or less keeps them forever.
     */
    private Uni<Void> deleteExpired(Duration keep, BiFunction<Instant, Integer, Uni<Integer>> deleteBatch,
            Instant deadline, AtomicLong deleted, Counter counted) {
        if (keep.isZero() || keep.isNegative()) {
            return Uni.createFrom().voidItem();
        }
        long started = System.nanoTime();
        return deleteBatch.apply(now().minus(keep), RETENTION_BATCH)
                .invoke(count -> {
                    deleted.addAndGet(count);
                    counted.increment(count);
                })
                .chain(count -> {
                    if (count < RETENTION_BATCH || clock.instant().isAfter(deadline)) {
                        return Uni.createFrom().voidItem();
                    }
                    Duration rest = Duration.ofNanos((System.nanoTime() - started) * RETENTION_REST_FACTOR);
                    return pause.of(rest).chain(() -> deleteExpired(keep, deleteBatch, deadline, deleted, counted));
                });
    }

    /** Takes overdue reminders over through the receiver's own claim and waits for their delivery to settle. */
    private Uni<Void> reconcile(Instant deadline, AtomicLong reconciled) {
        Instant now = now();
        return repository.overdue(now.minus(config.grace()), now, config.batchSize())
                .chain(overdue -> Multi.createFrom().iterable(overdue)
                        .onItem().transformToUni(taken -> delivery.takeOver(taken.message(), taken.reason()))
                        .merge(TAKE_OVERS_IN_FLIGHT)
                        .onItem().transformToUni(claimed -> {
                            if (claimed.isPresent()) {
                                reconciled.incrementAndGet();
                                return claimed.get().settled();
                            }
                            return Uni.createFrom().voidItem();
                        })
                        .merge(TAKE_OVERS_IN_FLIGHT)
                        .collect().asList()
                        .chain(ignored -> overdue.size() < config.batchSize() || clock.instant().isAfter(deadline)
                                ? Uni.createFrom().voidItem()
                                : reconcile(deadline, reconciled)));
    }

    private void record(ReconcileReport report) {
        registry.counter("tickler.sweep.reconciled").increment(report.reconciled());
        registry.counter("tickler.sweep.expired").increment(report.expired());
        reconcileDuration.record(Duration.ofMillis(report.durationMs()));
        if (report.reconciled() > 0 || report.expired() > 0) {
            LOG.infof("reconcile: %d reconciled, %d expired in %d ms", report.reconciled(), report.expired(),
                    report.durationMs());
        }
    }

    private void record(SweepReport report) {
        registry.counter("tickler.sweep.handed.off").increment(report.handedOff());
        registry.counter("tickler.sweep.failed.publish").increment(report.failedPublish());
        registry.counter("tickler.sweep.reconciled").increment(report.reconciled());
        registry.counter("tickler.sweep.expired").increment(report.expired());
        duration.record(Duration.ofMillis(report.durationMs()));
        LOG.infof("sweep: %d handed off, %d failed to publish, %d reconciled, %d expired, %d deleted, %d schedules"
                + " topped up, %d callback events deleted in %d ms", report.handedOff(), report.failedPublish(),
                report.reconciled(), report.expired(), report.deleted(), report.schedulesToppedUp(),
                report.callbacksDeleted(), report.durationMs());
    }

    private Instant now() {
        return clock.instant().truncatedTo(ChronoUnit.MICROS);
    }
}
