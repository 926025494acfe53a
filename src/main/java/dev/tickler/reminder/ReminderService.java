package dev.tickler.reminder;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.temporal.ChronoUnit;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import jakarta.enterprise.context.ApplicationScoped;

import org.hibernate.JDBCException;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import io.vertx.pgclient.PgException;

import dev.tickler.handoff.HandOff;
import dev.tickler.handoff.OccurrenceFollowUp;
import dev.tickler.ledger.NewReminder;
import dev.tickler.ledger.Registration;
import dev.tickler.ledger.ReminderLedger;
import dev.tickler.ledger.ReminderRow;
import dev.tickler.ledger.ReminderState;
import dev.tickler.problem.ProblemException;
import dev.tickler.publish.Via;
import dev.tickler.security.Caller;
import dev.tickler.security.TenantTags;
import dev.tickler.time.ReminderTiming;
import dev.tickler.tracing.ReminderTracing;

/**
 * The registration API's rules (docs/contract.md#states, #registration-api): each change is one conditional write to
 * the ledger, checked against the row as read, then handed off under the creation rule.
 */
@ApplicationScoped
public class ReminderService {

    private static final Set<ReminderState> RESCHEDULABLE =
            EnumSet.of(ReminderState.PENDING, ReminderState.HANDED_OFF, ReminderState.FAILED);
    private static final Set<ReminderState> CANCELLABLE = RESCHEDULABLE;
    private static final String UNIQUE_VIOLATION = "23505";
    /** A change that lost a race with another change of the same row is checked and tried again, this often. */
    private static final int CHANGE_TRIES = 3;

    private final ReminderRepository repository;
    private final ReminderLedger ledger;
    private final HandOff handOff;
    private final OccurrenceFollowUp followUp;
    private final ReminderTracing tracing;
    private final Clock clock;
    private final MeterRegistry registry;
    private final TenantTags tenantTags;

    public ReminderService(ReminderRepository repository, ReminderLedger ledger, HandOff handOff,
            OccurrenceFollowUp followUp, ReminderTracing tracing, Clock clock, MeterRegistry registry,
            TenantTags tenantTags) {
        this.repository = repository;
        this.ledger = ledger;
        this.handOff = handOff;
        this.followUp = followUp;
        this.tracing = tracing;
        this.clock = clock;
        this.registry = registry;
        this.tenantTags = tenantTags;
    }

    /**
     * Creates the reminder, or answers the one already registered for the same (user_id, template, fire_at): one
     * statement decides which, even when identical registrations race. The row keeps the request's trace context,
     * and the hand-off continues the request's trace.
     */
    public Uni<Registration> register(NewReminder request, Caller caller) {
        return ledger.register(request, caller.tenant(), caller.name(), now(), tracing.currentTraceparent())
                .invoke(created -> created.ifPresent(row -> {
                    tracing.tagCurrent(row.id());
                    registered(caller, 1);
                }))
                .chain(created -> created.isPresent()
                        ? handOff.handOffIfDue(created.get(), Via.API).map(row -> new Registration(row, true))
                        : ledger.findByNaturalKey(caller.tenant(), request.userId(), request.template(),
                                request.fireAt())
                                .map(existing -> new Registration(existing, false)));
    }

    /**
     * Registers many at once (docs/contract.md#batch-registration): each as a single registration would be, answered in
     * the order given; the hand-offs are published together with bounded concurrency.
     */
    public Uni<List<Registration>> registerAll(List<NewReminder> requests, Caller caller) {
        if (requests.isEmpty()) {
            return Uni.createFrom().item(List.of());
        }
        return ledger.registerAll(requests, caller.tenant(), caller.name(), now(), tracing.currentTraceparent())
                .invoke(registrations -> registered(caller,
                        registrations.stream().filter(Registration::created).count()))
                .chain(registrations -> handOff.handOffIfDue(registrations.stream()
                        .filter(Registration::created).map(Registration::reminder).toList(), Via.API)
                .map(handedOff -> {
                    Map<Long, ReminderRow> byId = new HashMap<>();
                    handedOff.forEach(row -> byId.put(row.id(), row));
                    return registrations.stream().map(registration -> registration.created()
                            ? new Registration(byId.get(registration.reminder().id()), true) : registration).toList();
                }));
    }

    /** Counts reminders created by the API (an existing one answered again is not counted) under the caller's tenant. */
    private void registered(Caller caller, long created) {
        if (created > 0) {
            Counter.builder("tickler.reminders.registered").tag("tenant", tenantTags.of(caller.tenant()))
                    .description("Reminders created through the API, by tenant").register(registry)
                    .increment(created);
        }
    }

    /** The reminder, when the caller may see it; another tenant's is a 404 like one that does not exist. */
    public Uni<ReminderRow> get(long id, Caller caller) {
        return ledger.find(id, caller.visibleTenant()).map(found -> found.orElseThrow(() -> notFound(id)));
    }

    /** A page of the user's reminders in the caller's tenant (an operator's: every tenant's). */
    public Uni<ReminderPage> list(Caller caller, String userId, ReminderState state, ListPosition after, int limit) {
        return Panache.withSession(() -> repository.listForUser(caller.visibleTenant(), userId, state, after,
                        limit + 1))
                .map(found -> ReminderPage.of(found.stream().map(Reminder::toRow).toList(), limit));
    }

    /** PATCH: a new version with new timing or data, handed off again; the old queue message becomes stale. */
    public Uni<ReminderRow> reschedule(long id, ReminderChange change, Caller caller) {
        return reschedule(id, change, caller, CHANGE_TRIES).chain(row -> handOff.handOffIfDue(row, Via.API));
    }

    private Uni<ReminderRow> reschedule(long id, ReminderChange change, Caller caller, int triesLeft) {
        return get(id, caller).chain(reminder -> {
            if (!RESCHEDULABLE.contains(reminder.state())) {
                throw ProblemException.conflict("reminder " + id + " is " + reminder.state().wireName()
                        + "; only pending, handed_off or failed reminders can be changed");
            }
            return ledger.reschedule(id, caller.visibleTenant(), reminder.version(), reminder.fireAt(),
                            changed(reminder, change), caller.name(), now())
                    .onFailure(ReminderService::isUniqueViolation).transform(e -> ProblemException.conflict(
                            "another reminder of this user and template already fires at that time"))
                    .chain(written -> written.isPresent() || triesLeft <= 1
                            ? Uni.createFrom().item(written.orElseThrow(() -> busy(id)))
                            : reschedule(id, change, caller, triesLeft - 1));
        });
    }

    /**
     * DELETE: cancelled, with a new version so any message still on the queue is stale. Idempotent. A schedule's
     * occurrence that is cancelled makes room for the schedule's next one, created before this answers.
     */
    public Uni<ReminderRow> cancel(long id, Caller caller) {
        return cancel(id, caller, CHANGE_TRIES);
    }

    private Uni<ReminderRow> cancel(long id, Caller caller, int triesLeft) {
        return ledger.cancel(List.of(id), caller.visibleTenant(), CANCELLABLE, caller.name(), now()).chain(cancelled -> {
            if (!cancelled.isEmpty()) {
                ReminderRow row = cancelled.get(0);
                return row.scheduleId() == null ? Uni.createFrom().item(row)
                        : followUp.occurrenceEnded(row.scheduleId()).replaceWith(row);
            }
            return get(id, caller).chain(reminder -> {
                if (reminder.state() == ReminderState.CANCELLED) {
                    return Uni.createFrom().item(reminder);
                }
                if (CANCELLABLE.contains(reminder.state()) && triesLeft > 1) {
                    return cancel(id, caller, triesLeft - 1);
                }
                throw ProblemException.conflict("reminder " + id + " is " + reminder.state().wireName()
                        + (reminder.state() == ReminderState.DELIVERING
                                ? "; a send is in flight and its outcome decides" : "; it can no longer be cancelled"));
            });
        });
    }

    /** A failed reminder goes round again: same version (same send key), next hand-off number, attempts reset. */
    public Uni<ReminderRow> redrive(long id, Caller caller) {
        return ledger.redrive(List.of(id), caller.visibleTenant(), caller.name(), now()).chain(redriven -> redriven.isEmpty()
                ? get(id, caller).map(reminder -> {
                    throw ProblemException.conflict("reminder " + id + " is " + reminder.state().wireName()
                            + "; only failed reminders can be redriven");
                })
                : handOff.handOffIfDue(redriven.get(0), Via.REDRIVE));
    }

    /** The row's new values under the change, checked whole against the row as read, so a refused PATCH writes nothing. */
    private static ReminderLedger.Rescheduled changed(ReminderRow reminder, ReminderChange change) {
        String tz = change.tz() != null ? change.tz() : reminder.tz();
        Instant fireAt = reminder.fireAt();
        if (change.reschedules()) {
            fireAt = ReminderTiming.fireAt(change.fireAt(), change.localTime(), ZoneId.of(tz));
            if (!ReminderTiming.isSupported(fireAt)) {
                // a local_time without tz is read in the stored zone, which only now is known
                throw ProblemException.invalid("local_time", "must fall between 1970-01-01T00:00:00Z and "
                        + "9999-12-30T23:59:59Z in the reminder's zone");
            }
        }
        Instant expiresAt = null;
        if (change.expiresAfter() != null) {
            expiresAt = ReminderTiming.expiresAt(fireAt, change.expiresAfter());
        } else if (reminder.expiresAt() != null) {
            // A moved reminder keeps the same window to be delivered in.
            expiresAt = ReminderTiming.expiresAt(fireAt, Duration.between(reminder.fireAt(), reminder.expiresAt()));
        }
        if (expiresAt == null && (change.expiresAfter() != null || reminder.expiresAt() != null)) {
            throw ProblemException.invalid("expires_after", ReminderTiming.expiryProblem());
        }
        return new ReminderLedger.Rescheduled(fireAt, tz, expiresAt,
                change.data() != null ? change.data() : reminder.data());
    }

    private Instant now() {
        return clock.instant().truncatedTo(ChronoUnit.MICROS);
    }

    private static ProblemException notFound(long id) {
        return ProblemException.notFound("reminder " + id + " does not exist");
    }

    /** The row kept changing under this change: rare, and a retry of the request settles it. */
    private static ProblemException busy(long id) {
        return ProblemException.conflict("reminder " + id + " changed while this change was being made; try again");
    }

    static boolean isUniqueViolation(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof PgException pg && UNIQUE_VIOLATION.equals(pg.getSqlState())
                    || cause instanceof JDBCException jdbc && UNIQUE_VIOLATION.equals(jdbc.getSQLState())) {
                return true;
            }
        }
        return false;
    }
}
