package dev.tickler.schedule;

import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Optional;
import java.util.function.BiFunction;

import jakarta.enterprise.context.ApplicationScoped;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.SqlConnection;

import dev.tickler.db.UniqueViolation;
import dev.tickler.ledger.ReminderLedger;
import dev.tickler.ledger.ReminderRow;
import dev.tickler.ledger.ReminderState;
import dev.tickler.problem.Problem;
import dev.tickler.problem.ProblemException;
import dev.tickler.problem.ProblemType;
import dev.tickler.publish.Via;
import dev.tickler.schedule.ScheduleRow.Position;
import dev.tickler.schedule.recurrence.Recurrence;
import dev.tickler.security.Caller;

/**
 * The schedules API's rules (see docs/schedules.md): each change locks the schedule, writes itself and the
 * occurrences it replaces or creates in one transaction, then hands the new occurrences off like registrations.
 */
@ApplicationScoped
public class ScheduleService {

    /** Occurrences a pause or a change gives back: those waiting to be sent at a time still to come. */
    private static final List<ReminderState> WAITING = List.of(ReminderState.PENDING, ReminderState.HANDED_OFF);
    /** Occurrences a delete cancels: every one not sent, dead letters included, so none is sent later. */
    private static final List<ReminderState> UNSENT =
            List.of(ReminderState.PENDING, ReminderState.HANDED_OFF, ReminderState.FAILED);

    /** One page of a user's schedules; next is the id to continue after, null on the last page. */
    public record Page(List<ScheduleRow> items, Long next) {
    }

    private final ScheduleRepository repository;
    private final ReminderLedger ledger;
    private final ScheduleTopUp topUp;
    private final Clock clock;

    public ScheduleService(ScheduleRepository repository, ReminderLedger ledger, ScheduleTopUp topUp, Clock clock) {
        this.repository = repository;
        this.ledger = ledger;
        this.topUp = topUp;
        this.clock = clock;
    }

    /** The answer to POST /v1/schedules: the schedule, and whether this call created it or found it made before. */
    public record Registration(ScheduleRow schedule, boolean created) {
    }

    /**
     * Creates the schedule and its first occurrences; occurrences whose time already passed (a start in the past)
     * are missed and its catch-up decides about them, up to {@link OccurrencePlan#MAX_SCANNED} of them. A schedule
     * registered before under the same (user_id, template, rrule, start, tz) is answered instead, as a repeated
     * reminder registration is (docs/schedules.md, "Registering once"): the unique index decides a race of two.
     */
    public Uni<Registration> create(NewSchedule schedule, Caller caller) {
        Recurrence recurrence = schedule.definition().recurrence();
        requireOccurrences(recurrence);
        Instant now = now();
        requireFewMissed(recurrence, now);
        return repository.inTransaction(connection -> repository
                .insert(connection, schedule, caller.tenant(), caller.name(), now)
                        .chain(created -> created.isEmpty()
                                ? Uni.createFrom().item(Optional.<ScheduleTopUp.Pass>empty())
                                : topUp.topUpLocked(connection, created.get(), now).map(Optional::of)))
                .chain(pass -> pass.isPresent()
                        ? topUp.finish(pass.get(), Via.API).map(created -> new Registration(created, true))
                        : repository.findByNaturalKey(schedule, caller.tenant()).map(ScheduleService::answerOrRefuse));
    }

    /**
     * A registration that met a schedule registered before: the same body is a safe retry and answers it; another
     * body, or a schedule that has ended, is refused so that the repeat is not read as registered.
     */
    private static Registration answerOrRefuse(ScheduleRepository.RegisteredBefore found) {
        ScheduleRow stored = found.schedule();
        if (stored.state() == ScheduleState.ENDED) {
            throw new ProblemException(Problem.registrationCancelled("schedule " + stored.id() + ", registered before"
                    + " with this user_id, template, rrule, start and tz, has ended (deleted, or past its COUNT or"
                    + " UNTIL) and sends nothing more; to remind again, register another start", null, stored.id()));
        }
        if (!found.differing().isEmpty()) {
            throw new ProblemException(Problem.registrationDiffers("schedule " + stored.id() + " was registered"
                    + " before with this user_id, template, rrule, start and tz and another "
                    + String.join(", ", found.differing()) + "; a retry must repeat the same body, and PATCH"
                    + " /v1/schedules/" + stored.id() + " changes it", found.differing(), null, stored.id()));
        }
        return new Registration(stored, false);
    }

    /** The schedule, when the caller may see it; another tenant's is a 404 like one that does not exist. */
    public Uni<ScheduleRow> get(long id, Caller caller) {
        return repository.find(id, caller.visibleTenant()).map(found -> found.orElseThrow(() -> notFound(id)));
    }

    public Uni<Page> list(Caller caller, String userId, Long afterId, int limit) {
        return repository.listForUser(caller.visibleTenant(), userId, afterId == null ? 0 : afterId, limit + 1)
                .map(rows -> rows.size() <= limit ? new Page(rows, null)
                        : new Page(rows.subList(0, limit), rows.get(limit - 1).id()));
    }

    /**
     * The next {@code count} occurrences from now, numbered as the schedule will number them; none once ended. A
     * schedule with more than {@link OccurrencePlan#MAX_SCANNED} occurrences between its last position and now (paused
     * for long) is a 409: resuming it applies its catch-up, and then it can be previewed.
     */
    public Uni<List<OccurrencePlan.Numbered>> preview(long id, int count, Caller caller) {
        return get(id, caller).map(schedule -> schedule.state() == ScheduleState.ENDED ? List.of()
                : OccurrencePlan.upcoming(schedule, now(), count).orElseThrow(() -> ProblemException.of(
                        ProblemType.SCHEDULE_BEHIND, "schedule " + id + " has more than "
                                + OccurrencePlan.MAX_SCANNED + " occurrences between its last position and now; resume"
                                + " it to apply its catch-up, then preview it")));
    }

    /**
     * PATCH: the occurrences still waiting for a time to come are cancelled and created again under the changed
     * schedule; one being delivered finishes. A new rule, start, zone or DST policy applies from now: its
     * occurrences before now are neither missed nor created.
     */
    public Uni<ScheduleRow> change(long id, ScheduleChange change, Caller caller) {
        String by = caller.name();
        return changeLocked(id, caller, (connection, schedule) -> {
            if (schedule.state() == ScheduleState.ENDED) {
                throw ended(id, "changed");
            }
            Instant now = now();
            ScheduleDefinition definition = change.applyTo(schedule.definition());
            Position from;
            if (change.changesTiming()) {
                Recurrence recurrence = definition.recurrence();
                requireOccurrences(recurrence);
                from = requireFewMissed(recurrence, now);
            } else {
                from = OccurrencePlan.rewound(schedule, now);
            }
            ScheduleRow changed = schedule.with(definition,
                    change.catchUp() != null ? change.catchUp() : schedule.catchUp(),
                    change.data() != null ? change.data() : schedule.data(),
                    change.expiresAfter() != null ? change.expiresAfter() : schedule.expiresAfter(),
                    schedule.state(), from, from);
            return cancelWaiting(connection, id, WAITING, OccurrencePlan.dueFrom(now), by, now)
                    .chain(() -> repository.update(connection, changed, now))
                    .onFailure(UniqueViolation::isCauseOf).transform(taken -> ProblemException.of(
                            ProblemType.SCHEDULE_TAKEN,
                            "another schedule of this user and template already has this rrule, start and tz"))
                    .chain(updated -> topUp.topUpLocked(connection, updated, now));
        });
    }

    /** DELETE: ended for good, every unsent occurrence cancelled (one being delivered finishes). Idempotent. */
    public Uni<ScheduleRow> delete(long id, Caller caller) {
        String by = caller.name();
        return changeLocked(id, caller, (connection, schedule) -> {
            if (schedule.state() == ScheduleState.ENDED) {
                return unchanged(schedule);
            }
            Instant now = now();
            return cancelWaiting(connection, id, UNSENT, Instant.EPOCH, by, now)
                    .chain(() -> repository.update(connection, schedule.inState(ScheduleState.ENDED), now))
                    .map(ScheduleService::done);
        });
    }

    /** Pause: nothing more is created, and the occurrences still waiting for a time to come are cancelled. */
    public Uni<ScheduleRow> pause(long id, Caller caller) {
        String by = caller.name();
        return changeLocked(id, caller, (connection, schedule) -> {
            if (schedule.state() == ScheduleState.ENDED) {
                throw ended(id, "paused");
            }
            if (schedule.state() == ScheduleState.PAUSED) {
                return unchanged(schedule);
            }
            Instant now = now();
            Position back = OccurrencePlan.rewound(schedule, now);
            return cancelWaiting(connection, id, WAITING, OccurrencePlan.dueFrom(now), by, now)
                    .chain(() -> repository.update(connection, schedule.with(schedule.definition(),
                            schedule.catchUp(), schedule.data(), schedule.expiresAfter(), ScheduleState.PAUSED, back,
                            back), now))
                    .map(ScheduleService::done);
        });
    }

    /** Resume: active again; what was missed while paused goes to the schedule's catch-up. */
    public Uni<ScheduleRow> resume(long id, Caller caller) {
        return changeLocked(id, caller, (connection, schedule) -> {
            if (schedule.state() == ScheduleState.ENDED) {
                throw ended(id, "resumed");
            }
            if (schedule.state() == ScheduleState.ACTIVE) {
                return unchanged(schedule);
            }
            Instant now = now();
            return repository.update(connection, schedule.inState(ScheduleState.ACTIVE), now)
                    .chain(updated -> topUp.topUpLocked(connection, updated, now));
        });
    }

    /** Cancels the schedule's occurrences in the given states whose time is at or after {@code from}. */
    private Uni<List<ReminderRow>> cancelWaiting(SqlConnection connection, long scheduleId, List<ReminderState> states,
            Instant from, String by, Instant now) {
        return repository.pickWaiting(connection, scheduleId, states, from)
                .chain(ids -> ledger.cancel(connection, ids, null, states, by, now));
    }

    /** Locks the schedule, makes the change in the same transaction, then hands off what it created. */
    private Uni<ScheduleRow> changeLocked(long id, Caller caller,
            BiFunction<SqlConnection, ScheduleRow, Uni<ScheduleTopUp.Pass>> change) {
        return repository.inTransaction(connection -> repository.lock(connection, id, caller.visibleTenant())
                        .chain(found -> change.apply(connection, found.orElseThrow(() -> notFound(id)))))
                .chain(pass -> topUp.finish(pass, Via.API));
    }

    private static Uni<ScheduleTopUp.Pass> unchanged(ScheduleRow schedule) {
        return Uni.createFrom().item(done(schedule));
    }

    private static ScheduleTopUp.Pass done(ScheduleRow schedule) {
        return new ScheduleTopUp.Pass(schedule, List.of(), true);
    }

    /**
     * The rule's last occurrence before now; a rule with more than {@link OccurrencePlan#MAX_SCANNED} of them between
     * its start and now is refused, on creation as on a change (docs/contract.md#recurring-reminders).
     */
    private static Position requireFewMissed(Recurrence recurrence, Instant now) {
        return OccurrencePlan.lastBefore(recurrence, now).orElseThrow(() -> ProblemException.invalid("start",
                "the rule has more than " + OccurrencePlan.MAX_SCANNED + " occurrences between start and now;"
                        + " choose a later start"));
    }

    /** A rule that never produces an occurrence (an UNTIL before the start, a start skipped in a gap and no match). */
    private static void requireOccurrences(Recurrence recurrence) {
        if (recurrence.first().isEmpty()) {
            throw ProblemException.invalid("rrule", "has no occurrence at or after start in this zone and DST policy");
        }
    }

    private static ProblemException ended(long id, String change) {
        return ProblemException.of(ProblemType.SCHEDULE_ENDED, "schedule " + id + " has ended and cannot be " + change);
    }

    private static ProblemException notFound(long id) {
        return ProblemException.notFound("schedule " + id + " does not exist");
    }

    private Instant now() {
        return clock.instant().truncatedTo(ChronoUnit.MICROS);
    }
}
