package dev.tickler.schedule;

import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import jakarta.enterprise.context.ApplicationScoped;

import org.jboss.logging.Logger;

import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.SqlConnection;

import dev.tickler.handoff.HandOff;
import dev.tickler.handoff.OccurrenceFollowUp;
import dev.tickler.ledger.Occurrences;
import dev.tickler.ledger.ReminderLedger;
import dev.tickler.ledger.ReminderRow;
import dev.tickler.publish.Via;
import dev.tickler.time.ReminderTiming;

/**
 * Keeps a schedule's next occurrences in existence as reminders ({@link OccurrencePlan} decides which). Every top-up
 * holds the schedule's row lock, so concurrent top-ups take turns and the second finds the work done; the unique
 * (schedule_id, occurrence) index would refuse a second copy anyway. Created reminders are handed off by the
 * creation rule after the commit, like a registration.
 *
 * <p>Who calls it: delivery after settling a claimed occurrence, a cancel of an occurrence, every schedule change,
 * and the sweep's backstop for every active schedule short of occurrences (what a lost follow-up left behind).
 */
@ApplicationScoped
public class ScheduleTopUp implements OccurrenceFollowUp {

    private static final Logger LOG = Logger.getLogger(ScheduleTopUp.class);
    private static final int BACKSTOP_BATCH = 500;
    private static final int TOP_UPS_IN_FLIGHT = 8;

    /** One pass's outcome: the schedule as it now is, what to hand off, and whether another pass must follow. */
    record Pass(ScheduleRow schedule, List<ReminderRow> created, boolean complete) {
    }

    private final ScheduleRepository repository;
    private final ReminderLedger ledger;
    private final HandOff handOff;
    private final Clock clock;

    public ScheduleTopUp(ScheduleRepository repository, ReminderLedger ledger, HandOff handOff, Clock clock) {
        this.repository = repository;
        this.ledger = ledger;
        this.handOff = handOff;
        this.clock = clock;
    }

    @Override
    public Uni<Void> occurrenceEnded(long scheduleId) {
        return topUp(scheduleId, Via.API).replaceWithVoid().onFailure().recoverWithUni(failure -> {
            LOG.warnf("schedule %d could not be topped up (%s); the sweep tops it up", scheduleId,
                    failure.getMessage());
            return Uni.createFrom().voidItem();
        });
    }

    /** Tops the schedule up, pass after pass until its catch-up is done; answers whether it created anything. */
    public Uni<Boolean> topUp(long scheduleId, Via via) {
        return repository.inTransaction(connection -> repository.lock(connection, scheduleId, null)
                        .chain(found -> found.isEmpty() ? Uni.createFrom().item(new Pass(null, List.of(), true))
                                : topUpLocked(connection, found.get(), now())))
                .chain(pass -> handOff(pass, via))
                .chain(pass -> pass.complete() ? Uni.createFrom().item(!pass.created().isEmpty())
                        : topUp(scheduleId, via).map(more -> true));
    }

    /**
     * The sweep's backstop: tops up every active schedule with fewer unfinished occurrences than it keeps (a
     * follow-up lost with an instance, an occurrence expired or cancelled in bulk), batch after batch in id order
     * until none is left or the deadline passes. Answers how many schedules got new occurrences.
     */
    public Uni<Long> backstop(Instant deadline) {
        AtomicLong toppedUp = new AtomicLong();
        return backstopAfter(0, deadline, toppedUp).map(ignored -> toppedUp.get());
    }

    private Uni<Void> backstopAfter(long afterId, Instant deadline, AtomicLong toppedUp) {
        return repository.shortOfOccurrences(afterId, BACKSTOP_BATCH).chain(ids -> Multi.createFrom().iterable(ids)
                .onItem().transformToUni(id -> topUp(id, Via.SWEEP).onFailure().recoverWithItem(failure -> {
                    LOG.warnf("sweep could not top up schedule %d: %s", id, failure.getMessage());
                    return false;
                }))
                .merge(TOP_UPS_IN_FLIGHT)
                .invoke(created -> {
                    if (created) {
                        toppedUp.incrementAndGet();
                    }
                })
                .collect().asList()
                .chain(ignored -> ids.size() < BACKSTOP_BATCH || clock.instant().isAfter(deadline)
                        ? Uni.createFrom().voidItem()
                        : backstopAfter(ids.get(ids.size() - 1), deadline, toppedUp)));
    }

    /** The rest of a pass made inside another transaction (a creation, a change): its hand-offs and later passes. */
    Uni<ScheduleRow> finish(Pass pass, Via via) {
        return handOff(pass, via).chain(handed -> handed.complete() ? Uni.createFrom().item(handed.schedule())
                : topUp(handed.schedule().id(), via).chain(() -> repository.find(handed.schedule().id(), null))
                        .map(found -> found.orElse(handed.schedule())));
    }

    /** One pass, in the caller's transaction, on a schedule the caller has locked (or just created). */
    Uni<Pass> topUpLocked(SqlConnection connection, ScheduleRow schedule, Instant now) {
        if (schedule.state() != ScheduleState.ACTIVE) {
            return Uni.createFrom().item(new Pass(schedule, List.of(), true));
        }
        return repository.countUnfinished(connection, schedule.id()).chain(unfinished -> {
            OccurrencePlan.Plan plan = OccurrencePlan.topUp(schedule, unfinished, now);
            boolean ends = plan.exhausted() && unfinished + plan.toSend().size() == 0;
            if (plan.changesNothing(schedule) && !ends) {
                return Uni.createFrom().item(new Pass(schedule, List.of(), true));
            }
            String by = schedule.createdBy();
            List<ReminderRow> created = new ArrayList<>();
            return ledger.createOccurrences(connection, occurrences(schedule, plan.toSend()), false, by, now)
                    .invoke(created::addAll)
                    .chain(() -> ledger.createOccurrences(connection, occurrences(schedule, plan.toSkip()), true, by,
                            now))
                    .chain(() -> repository.saveProgress(connection, schedule, plan.lastNumber(), plan.cursor(),
                            plan.anchor(), plan.skipped(), ends ? ScheduleState.ENDED : ScheduleState.ACTIVE, now))
                    .map(saved -> new Pass(saved, created, plan.complete()));
        });
    }

    private Uni<Pass> handOff(Pass pass, Via via) {
        if (pass.created().isEmpty()) {
            return Uni.createFrom().item(pass);
        }
        return handOff.handOffIfDue(pass.created(), via).replaceWith(pass);
    }

    /** The planned occurrences as the ledger creates them: each fire_at, and expires_at by the schedule's rule. */
    private static Occurrences occurrences(ScheduleRow schedule, List<OccurrencePlan.Numbered> planned) {
        List<Integer> numbers = new ArrayList<>();
        List<Instant> fireAts = new ArrayList<>();
        List<Instant> expiresAts = new ArrayList<>();
        for (OccurrencePlan.Numbered occurrence : planned) {
            Instant fireAt = occurrence.occurrence().instant();
            numbers.add(occurrence.number());
            fireAts.add(fireAt);
            expiresAts.add(schedule.expiresAfter() == null ? null
                    : ReminderTiming.expiresAt(fireAt, schedule.expiresAfter()));
        }
        return new Occurrences(schedule.id(), schedule.tenant(), schedule.userId(), schedule.channel(), schedule.template(),
                schedule.definition().tz(), schedule.data(), numbers, fireAts, expiresAts);
    }

    private Instant now() {
        return clock.instant().truncatedTo(ChronoUnit.MICROS);
    }
}
