package dev.tickler.reminder;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.temporal.ChronoUnit;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

import jakarta.enterprise.context.ApplicationScoped;

import org.hibernate.JDBCException;

import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import io.vertx.pgclient.PgException;

import dev.tickler.publish.Via;
import dev.tickler.timeline.EventType;
import dev.tickler.timeline.TimelineEvent;
import dev.tickler.problem.ProblemException;
import dev.tickler.tracing.ReminderTracing;
import dev.tickler.handoff.OccurrenceFollowUp;
import dev.tickler.ledger.NewReminder;
import dev.tickler.ledger.Registration;
import dev.tickler.ledger.ReminderRow;
import dev.tickler.ledger.ReminderState;
import dev.tickler.time.ReminderTiming;

/**
 * The registration API's rules (docs/contract.md#states, #registration-api): each change commits first, then hands off
 * under the creation rule.
 */
@ApplicationScoped
public class ReminderService {

    private static final Set<ReminderState> RESCHEDULABLE =
            EnumSet.of(ReminderState.PENDING, ReminderState.HANDED_OFF, ReminderState.FAILED);
    private static final Set<ReminderState> FINISHED_OR_IN_FLIGHT =
            EnumSet.of(ReminderState.SENT, ReminderState.EXPIRED, ReminderState.SKIPPED, ReminderState.DELIVERING);
    private static final String UNIQUE_VIOLATION = "23505";

    private final ReminderRepository repository;
    private final RegistrationStore store;
    private final ReminderHandOff handOff;
    private final OccurrenceFollowUp followUp;
    private final ReminderTracing tracing;
    private final Clock clock;

    public ReminderService(ReminderRepository repository, RegistrationStore store, ReminderHandOff handOff,
            OccurrenceFollowUp followUp, ReminderTracing tracing, Clock clock) {
        this.repository = repository;
        this.store = store;
        this.handOff = handOff;
        this.followUp = followUp;
        this.tracing = tracing;
        this.clock = clock;
    }

    /**
     * Creates the reminder, or answers the one already registered for the same (user_id, template, fire_at): one
     * statement decides which, even when identical registrations race. The row keeps the request's trace context,
     * and the hand-off continues the request's trace.
     */
    public Uni<Registration> register(NewReminder request, String by) {
        return store.insert(request, by, now(), tracing.currentTraceparent())
                .invoke(created -> created.ifPresent(row -> tracing.tagCurrent(row.id())))
                .chain(created -> created.isPresent()
                        ? handOff.handOffIfDue(created.get(), Via.API).map(row -> new Registration(row, true))
                        : store.findByNaturalKey(request.userId(), request.template(), request.fireAt())
                                .map(existing -> new Registration(existing, false)));
    }

    /**
     * Registers many at once (docs/contract.md#batch-registration): each as a single registration would be, answered in
     * the order given; the hand-offs are published together with bounded concurrency.
     */
    public Uni<List<Registration>> registerAll(List<NewReminder> requests, String by) {
        if (requests.isEmpty()) {
            return Uni.createFrom().item(List.of());
        }
        return store.insertAll(requests, by, now(), tracing.currentTraceparent())
                .chain(registrations -> handOff.handOffAllDue(registrations.stream()
                        .filter(Registration::created).map(Registration::reminder).toList(), Via.API)
                .map(handedOff -> {
                    Map<Long, ReminderRow> byId = new HashMap<>();
                    handedOff.forEach(row -> byId.put(row.id(), row));
                    return registrations.stream().map(registration -> registration.created()
                            ? new Registration(byId.get(registration.reminder().id()), true) : registration).toList();
                }));
    }

    public Uni<ReminderRow> get(long id) {
        return store.findById(id).map(found -> found.orElseThrow(() -> notFound(id)));
    }

    public Uni<ReminderPage> list(String userId, ReminderState state, ListPosition after, int limit) {
        return Panache.withSession(() -> repository.listForUser(userId, state, after, limit + 1))
                .map(found -> ReminderPage.of(found.stream().map(Reminder::toRow).toList(), limit));
    }

    /** PATCH: a new version with new timing or data, handed off again; the old queue message becomes stale. */
    public Uni<ReminderRow> reschedule(long id, ReminderChange change, String by) {
        return changeLocked(id, reminder -> {
            if (!RESCHEDULABLE.contains(reminder.state)) {
                throw ProblemException.conflict("reminder " + id + " is " + reminder.state.wireName()
                        + "; only pending, handed_off or failed reminders can be changed");
            }
            Instant from = reminder.fireAt;
            applyChange(reminder, change);
            reminder.version++;
            reminder.handoff = 0;
            reminder.attempts = 0;
            reminder.lastError = null;
            reminder.messageId = null;
            reminder.leaseUntil = null;
            reminder.takeovers = 0;
            reminder.deferredUntil = null;
            reminder.state = ReminderState.PENDING;
            return event(reminder, EventType.RESCHEDULED, "from", from, "to", reminder.fireAt,
                    "version", reminder.version, "by", by);
        })
                .onFailure(ReminderService::isUniqueViolation).transform(e -> ProblemException.conflict(
                        "another reminder of this user and template already fires at that time"))
                .chain(row -> handOff.handOffIfDue(row, Via.API));
    }

    /**
     * DELETE: cancelled, with a new version so any message still on the queue is stale. Idempotent. A schedule's
     * occurrence that is cancelled makes room for the schedule's next one, created before this answers.
     */
    public Uni<ReminderRow> cancel(long id, String by) {
        return changeLocked(id, reminder -> {
            if (reminder.state == ReminderState.CANCELLED) {
                return null;
            }
            if (FINISHED_OR_IN_FLIGHT.contains(reminder.state)) {
                throw ProblemException.conflict("reminder " + id + " is " + reminder.state.wireName()
                        + (reminder.state == ReminderState.DELIVERING
                                ? "; a send is in flight and its outcome decides" : "; it can no longer be cancelled"));
            }
            reminder.version++;
            reminder.state = ReminderState.CANCELLED;
            reminder.leaseUntil = null;
            return event(reminder, EventType.CANCELLED, "by", by);
        }).call(row -> row.scheduleId() == null ? Uni.createFrom().voidItem()
                : followUp.occurrenceEnded(row.scheduleId()));
    }

    /** A failed reminder goes round again: same version (same send key), next hand-off number, attempts reset. */
    public Uni<ReminderRow> redrive(long id, String by) {
        return changeLocked(id, reminder -> {
            if (reminder.state != ReminderState.FAILED) {
                throw ProblemException.conflict("reminder " + id + " is " + reminder.state.wireName()
                        + "; only failed reminders can be redriven");
            }
            reminder.handoff++;
            reminder.attempts = 0;
            reminder.takeovers = 0;
            reminder.lastError = null;
            reminder.messageId = null;
            // due from the redrive, not from its fire_at: its lateness is by design, not dispatch lag
            reminder.deferredUntil = now();
            reminder.state = ReminderState.PENDING;
            return event(reminder, EventType.REDRIVEN, "by", by);
        }).chain(row -> handOff.handOffIfDue(row, Via.REDRIVE));
    }

    /**
     * Loads the row under a lock, applies the change, and commits it with its timeline event before anything talks
     * to the queue. A change that answers no event changed nothing (a repeated cancel).
     */
    private Uni<ReminderRow> changeLocked(long id, Function<Reminder, TimelineEvent> change) {
        return Panache.withTransaction(() -> repository.findByIdForUpdate(id)
                .onItem().ifNull().failWith(() -> notFound(id))
                .call(reminder -> {
                    TimelineEvent event = change.apply(reminder);
                    if (event == null) {
                        return Uni.createFrom().voidItem();
                    }
                    reminder.updatedAt = event.at();
                    return repository.appendEvent(event);
                })
                .map(Reminder::toRow));
    }

    /** The event of a change made now; details from name, value pairs. */
    private TimelineEvent event(Reminder reminder, EventType type, Object... namesAndValues) {
        Map<String, Object> detail = new LinkedHashMap<>();
        for (int i = 0; i < namesAndValues.length; i += 2) {
            Object value = namesAndValues[i + 1];
            detail.put((String) namesAndValues[i], value instanceof Instant instant ? instant.toString() : value);
        }
        return new TimelineEvent(reminder.id, now(), type, detail);
    }

    /** Checks the whole change against the stored row first, so a refused PATCH writes nothing. */
    private void applyChange(Reminder reminder, ReminderChange change) {
        String tz = change.tz() != null ? change.tz() : reminder.tz;
        Instant fireAt = reminder.fireAt;
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
        } else if (reminder.expiresAt != null) {
            // A moved reminder keeps the same window to be delivered in.
            expiresAt = ReminderTiming.expiresAt(fireAt, Duration.between(reminder.fireAt, reminder.expiresAt));
        }
        if (expiresAt == null && (change.expiresAfter() != null || reminder.expiresAt != null)) {
            throw ProblemException.invalid("expires_after", ReminderTiming.expiryProblem());
        }
        reminder.fireAt = fireAt;
        reminder.tz = tz;
        reminder.expiresAt = expiresAt;
        if (change.data() != null) {
            reminder.data = change.data();
        }
    }

    private Instant now() {
        return clock.instant().truncatedTo(ChronoUnit.MICROS);
    }

    private static ProblemException notFound(long id) {
        return ProblemException.notFound("reminder " + id + " does not exist");
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
