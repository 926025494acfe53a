package dev.tickler.reminder;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Executor;

import jakarta.enterprise.context.ApplicationScoped;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.opentelemetry.context.Context;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;
import io.vertx.mutiny.sqlclient.SqlConnection;

import dev.tickler.db.CallerContext;
import dev.tickler.db.StatementBatcher;
import dev.tickler.db.UniqueViolation;
import dev.tickler.handoff.HandOff;
import dev.tickler.handoff.OccurrenceFollowUp;
import dev.tickler.ledger.Created;
import dev.tickler.ledger.NewReminder;
import dev.tickler.ledger.Registration;
import dev.tickler.ledger.ReminderLedger;
import dev.tickler.ledger.ReminderLedger.Registering;
import dev.tickler.ledger.ReminderRow;
import dev.tickler.ledger.ReminderState;
import dev.tickler.ledger.UserReminderFilter;
import dev.tickler.problem.Problem;
import dev.tickler.problem.ProblemException;
import dev.tickler.problem.ProblemType;
import dev.tickler.publish.Via;
import dev.tickler.security.Caller;
import dev.tickler.security.TenantTags;
import dev.tickler.time.PastLimit;
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
    /** A change that lost a race with another change of the same row is checked and tried again, this often. */
    private static final int CHANGE_TRIES = 3;
    /**
     * A registration of a key whose live reminder came or went while it was made is tried again, this often: each try
     * sees what the one before lost to.
     */
    private static final int KEYED_TRIES = 5;
    /** A cancel by filter changes this many reminders a statement, each statement a transaction of its own. */
    static final int CANCEL_BATCH = 1_000;
    /** and at most this many a call; the answer says whether more are left. */
    static final int MAX_CANCELLED_PER_CALL = 10_000;
    /** A batch registers this many of its keys at once. */
    private static final int KEYS_IN_FLIGHT = 8;

    private final ReminderRepository repository;
    private final ReminderLedger ledger;
    private final HandOff handOff;
    private final OccurrenceFollowUp followUp;
    private final ReminderTracing tracing;
    private final Clock clock;
    private final MeterRegistry registry;
    private final TenantTags tenantTags;
    private final PastLimit pastLimit;
    private final StatementBatcher<Lingering, Uni<Optional<ReminderRow>>> registrations;

    public ReminderService(ReminderRepository repository, ReminderLedger ledger, HandOff handOff,
            OccurrenceFollowUp followUp, ReminderTracing tracing, Clock clock, MeterRegistry registry,
            TenantTags tenantTags, PastLimit pastLimit) {
        this.repository = repository;
        this.ledger = ledger;
        this.handOff = handOff;
        this.followUp = followUp;
        this.tracing = tracing;
        this.clock = clock;
        this.registry = registry;
        this.tenantTags = tenantTags;
        this.pastLimit = pastLimit;
        this.registrations = ledger.registrationBatcher(this::registerLingering, Lingering::registering);
    }

    /**
     * Creates the reminder, or answers the one already registered for the same (user_id, template, fire_at): one
     * statement decides which, even when identical registrations race. The row keeps the request's trace context,
     * and the hand-off continues the request's trace. A reminder with a key is named by its key instead: a live one
     * with the same body is answered. A repeat with another body, or of a cancelled reminder, is refused
     * ({@link #refusalOfRepeat}).
     */
    public Uni<Registration> register(NewReminder request, Caller caller) {
        if (request.key() != null) {
            return registerKeyed(request, caller, false, KEYED_TRIES);
        }
        Registering registering = Registering.of(request, caller.tenant(), caller.name(), now(),
                tracing.currentTraceparent());
        Context trace = Context.current();
        Executor onCallersContext = CallerContext.of(Vertx.currentContext());
        return registrations.submit(new Lingering(registering, trace))
                .onFailure().recoverWithItem(batchFailure -> ledger.register(registering)
                        .chain(created -> handedOffCreated(created.stream().toList(), List.of(trace))
                                .map(rows -> rows.stream().findFirst())))
                .chain(handedOff -> handedOff.emitOn(onCallersContext))
                .chain(created -> created.isPresent() ? Uni.createFrom().item(createdOne(created.get(), caller))
                        : ledger.findByNaturalKey(caller.tenant(), request).map(ReminderService::answerOrRefuse));
    }

    /** A registration without a key lingering for others to share its statements, and the trace it continues. */
    private record Lingering(Registering registering, Context trace) {
    }

    /**
     * Registrations that lingered together: inserted in one statement, then handed off together, so that the marks of
     * those published share one statement too, with no linger of their own. The batch ends with its insert, so that
     * the registrations arriving meanwhile linger for a batch of their own rather than leave one by one; each is
     * answered with its row as the hand-off leaves it, or empty when its natural key was taken. Once the inserts are
     * in, a failed hand-off leaves the rows pending for the sweep and answers them so, rather than failing
     * registrations that were made.
     */
    private Uni<List<Uni<Optional<ReminderRow>>>> registerLingering(List<Lingering> batch) {
        return ledger.registerLingering(batch.stream().map(Lingering::registering).toList()).map(created -> {
            List<Created> made = new ArrayList<>();
            List<Context> traces = new ArrayList<>();
            for (int i = 0; i < batch.size(); i++) {
                if (created.get(i).isPresent()) {
                    made.add(created.get(i).get());
                    traces.add(batch.get(i).trace());
                }
            }
            Uni<List<ReminderRow>> handedOff = handedOffCreated(made, traces)
                    .onFailure().recoverWithItem(() -> made.stream().map(Created::reminder).toList())
                    .memoize().indefinitely();
            // under way now, whether or not its callers are still there to wait for it
            handedOff.subscribe().with(rows -> {
            });
            List<Uni<Optional<ReminderRow>>> answers = new ArrayList<>(batch.size());
            int next = 0;
            for (Optional<Created> one : created) {
                if (one.isPresent()) {
                    int at = next++;
                    answers.add(handedOff.map(rows -> Optional.of(rows.get(at))));
                } else {
                    answers.add(Uni.createFrom().item(Optional.empty()));
                }
            }
            return answers;
        });
    }

    private Uni<List<ReminderRow>> handedOffCreated(List<Created> created, List<Context> traces) {
        return created.isEmpty() ? Uni.createFrom().item(List.of())
                : handOff.handOffCreated(created, traces, Via.API);
    }

    /**
     * A registration that met one registered before (docs/contract.md#registration-api) is refused when it would be
     * misread as registered: its body differs from the stored one (409 registration-differs, naming the fields), or the
     * stored reminder was cancelled and will not be sent (409 registration-cancelled). A repeat of the same body is a
     * safe retry and is answered with the stored reminder, whatever else its state.
     */
    private static Optional<Problem> refusalOfRepeat(Registration registration) {
        if (registration.created()) {
            return Optional.empty();
        }
        ReminderRow stored = registration.reminder();
        String registeredAs = stored.key() != null ? "under the key " + stored.key()
                : "with this user_id, template and fire_at";
        if (stored.state() == ReminderState.CANCELLED) {
            return Optional.of(Problem.registrationCancelled("reminder " + stored.id() + ", registered before "
                    + registeredAs + ", was cancelled and will not be sent; to remind again, register another fire_at,"
                    + " or under a key (PUT /v1/reminders/by-key/{key})", stored.id(), null));
        }
        if (registration.sameBody()) {
            return Optional.empty();
        }
        String change = stored.key() != null ? "PUT /v1/reminders/by-key/" + stored.key() + " replaces it"
                : "PATCH /v1/reminders/" + stored.id() + " changes it";
        return Optional.of(Problem.registrationDiffers("reminder " + stored.id() + " was registered before "
                + registeredAs + " and another " + String.join(", ", registration.differing()) + "; a retry must"
                + " repeat the same body, and " + change, registration.differing(), stored.id(), null));
    }

    private static Registration answerOrRefuse(Registration registration) {
        refusalOfRepeat(registration).ifPresent(refusal -> {
            throw new ProblemException(refusal);
        });
        return registration;
    }

    private Uni<Registration> handedOffNew(ReminderRow created, Caller caller) {
        return handOff.handOffIfDue(created, Via.API).map(row -> createdOne(row, caller));
    }

    private Registration createdOne(ReminderRow created, Caller caller) {
        tracing.tagCurrent(created.id());
        registered(caller, 1);
        return new Registration(created, true);
    }

    /**
     * PUT by key (docs/contract.md#keyed-reminders-and-cancel-by-filter): creates the key's reminder when none is live;
     * leaves a live one with the same body alone (same version, no hand-off); replaces every field of one with another
     * body, as a PATCH of them all, and hands it off again; a delivering one is a conflict. The unique index of live
     * keys decides a race of two creations, and the row's lock a race of two replacements (one statement replaces the
     * row as read; only a replacement that lost a race locks it), so concurrent PUTs of one key make one reminder.
     */
    public Uni<Registration> put(NewReminder request, Caller caller) {
        return registerKeyed(request, caller, true, KEYED_TRIES);
    }

    private Uni<Registration> registerKeyed(NewReminder request, Caller caller, boolean replace, int triesLeft) {
        return ledger.registerKeyed(request, caller.tenant(), caller.name(), now(), tracing.currentTraceparent())
                .chain(found -> {
                    if (found.isEmpty()) {
                        return again(request, caller, replace, triesLeft);
                    }
                    Registration keyed = found.get();
                    if (keyed.created()) {
                        return handedOffNew(keyed.reminder(), caller);
                    }
                    if (keyed.sameBody()) {
                        return Uni.createFrom().item(keyed);
                    }
                    if (!replace) {
                        return Uni.createFrom().item(answerOrRefuse(keyed));
                    }
                    refuseDelivering(keyed.reminder());
                    return replace(keyed.reminder(), request, caller).chain(replaced -> {
                        if (replaced.isEmpty()) {
                            return again(request, caller, replace, triesLeft);
                        }
                        Uni<ReminderRow> answer = replaced.get().changed()
                                ? handOff.handOffIfDue(replaced.get().reminder(), Via.API)
                                : Uni.createFrom().item(replaced.get().reminder());
                        return answer.map(row -> new Registration(row, false));
                    });
                });
    }

    /** The live reminder of a key as a PUT left it: replaced by its body, or found with that body already. */
    private record Replaced(ReminderRow reminder, boolean changed) {
    }

    /**
     * The key's live reminder replaced by the body, in one statement while it is still as the registration read it;
     * else, when a racing change moved it on, as {@link #replaceLive} finds it.
     */
    private Uni<Optional<Replaced>> replace(ReminderRow live, NewReminder request, Caller caller) {
        return ledger.replace(live, request, caller.name(), now())
                .chain(replaced -> replaced.isPresent()
                        ? Uni.createFrom().item(Optional.of(new Replaced(replaced.get(), true)))
                        : replaceLive(request, caller));
    }

    /**
     * The key's live reminder, locked, compared with the body again and replaced by it when it differs, in one
     * transaction; empty when no reminder of the key is live any more. Racing replacements take turns here.
     */
    private Uni<Optional<Replaced>> replaceLive(NewReminder request, Caller caller) {
        return ledger.inTransaction(connection -> ledger.lockLive(connection, caller.tenant(), request)
                .chain(live -> live.isEmpty() ? Uni.createFrom().item(Optional.<Replaced>empty())
                        : replaceLocked(connection, live.get(), request, caller)));
    }

    private Uni<Optional<Replaced>> replaceLocked(SqlConnection connection, Registration live,
            NewReminder request, Caller caller) {
        if (live.sameBody()) {
            return Uni.createFrom().item(Optional.of(new Replaced(live.reminder(), false)));
        }
        refuseDelivering(live.reminder());
        return ledger.replace(connection, live.reminder(), request, caller.name(), now())
                .map(replaced -> Optional.of(new Replaced(replaced.orElseThrow(() -> new IllegalStateException(
                        "the locked reminder " + live.reminder().id() + " could not be replaced")), true)));
    }

    /** The key's live reminder came or went while this registration was made: again, seeing what it lost to. */
    private Uni<Registration> again(NewReminder request, Caller caller, boolean replace, int triesLeft) {
        if (triesLeft <= 1) {
            return Uni.createFrom().failure(ProblemException.of(ProblemType.CONCURRENT_CHANGE,
                    "the reminder of the key " + request.key() + " changed while this registration was being made;"
                            + " try again"));
        }
        return registerKeyed(request, caller, replace, triesLeft - 1);
    }

    private static void refuseDelivering(ReminderRow live) {
        if (live.state() == ReminderState.DELIVERING) {
            throw ProblemException.of(ProblemType.KEY_DELIVERING, "reminder " + live.id() + " of the key "
                    + live.key() + " is delivering; a send is in flight and its outcome decides");
        }
    }

    /** The key's live reminder, else its reminder that finished last; another tenant's key names none here. */
    public Uni<ReminderRow> getByKey(String key, Caller caller) {
        return ledger.findByKey(caller.tenant(), key).map(found -> found.orElseThrow(() -> keyNotFound(key)));
    }

    /** DELETE by key: cancels the key's live reminder as DELETE by id does; a key without a live one is not found. */
    public Uni<ReminderRow> cancelByKey(String key, Caller caller) {
        return ledger.findByKey(caller.tenant(), key).chain(found -> {
            if (found.isEmpty() || !found.get().state().isLive()) {
                throw ProblemException.notFound("no live reminder has the key " + key);
            }
            return cancel(found.get().id(), caller);
        });
    }

    private static ProblemException keyNotFound(String key) {
        return ProblemException.notFound("no reminder has the key " + key);
    }

    /**
     * Cancels the caller's tenant's reminders of one user that match the filter and are not finished, in batches of
     * {@value #CANCEL_BATCH}, each one statement that writes its cancelled events, at most
     * {@value #MAX_CANCELLED_PER_CALL} a call. Delivering ones are counted and left to their outcome. The schedules of
     * cancelled occurrences make room for their next ones once every batch is done, so this call does not meet them.
     */
    public Uni<Cancellation> cancelMatching(UserReminderFilter filter, Caller caller) {
        Set<Long> endedOccurrencesOf = new HashSet<>();
        return cancelBatches(filter, caller, 0, endedOccurrencesOf)
                .chain(cancelled -> (cancelled < MAX_CANCELLED_PER_CALL ? Uni.createFrom().item(false)
                        : ledger.countMatching(caller.tenant(), filter, CANCELLABLE).map(left -> left > 0))
                        .chain(more -> ledger.countMatching(caller.tenant(), filter, EnumSet.of(ReminderState.DELIVERING))
                                .map(delivering -> new Cancellation(cancelled, delivering, more))))
                .call(() -> handOff.followUp(endedOccurrencesOf));
    }

    private Uni<Long> cancelBatches(UserReminderFilter filter, Caller caller, long cancelledSoFar,
            Set<Long> endedOccurrencesOf) {
        int limit = (int) Math.min(CANCEL_BATCH, MAX_CANCELLED_PER_CALL - cancelledSoFar);
        return ledger.cancelMatching(caller.tenant(), filter, CANCELLABLE, limit, caller.name(), now())
                .chain(scheduleIds -> {
                    scheduleIds.stream().filter(Objects::nonNull).forEach(endedOccurrencesOf::add);
                    long cancelled = cancelledSoFar + scheduleIds.size();
                    return scheduleIds.size() < limit || cancelled >= MAX_CANCELLED_PER_CALL
                            ? Uni.createFrom().item(cancelled)
                            : cancelBatches(filter, caller, cancelled, endedOccurrencesOf);
                });
    }

    /**
     * One item's answer in a batch registration: its registration, or the refusal a single POST of it would meet (a
     * repeat with another body or of a cancelled reminder, a key's reminder being delivered).
     */
    public record BatchAnswer(Registration registration, Problem refusal) {
    }

    /**
     * Registers many at once (docs/contract.md#batch-registration): each as a single registration would be, answered in
     * the order given. Those without keys go in one statement, their hand-offs published together with bounded
     * concurrency; those with keys beside them, a few keys at a time, the repeats of a key in the order given.
     */
    public Uni<List<BatchAnswer>> registerAll(List<NewReminder> requests, Caller caller) {
        List<NewReminder> unkeyed = requests.stream().filter(request -> request.key() == null).toList();
        Map<String, List<Integer>> positionsByKey = new LinkedHashMap<>();
        for (int i = 0; i < requests.size(); i++) {
            if (requests.get(i).key() != null) {
                positionsByKey.computeIfAbsent(requests.get(i).key(), key -> new ArrayList<>()).add(i);
            }
        }
        return Uni.combine().all().unis(registerUnkeyed(unkeyed, caller),
                        registerKeyedInTurn(requests, positionsByKey.values(), caller))
                .with((registrations, keyed) -> {
                    Iterator<Registration> nextUnkeyed = registrations.iterator();
                    List<BatchAnswer> answers = new ArrayList<>(requests.size());
                    for (int i = 0; i < requests.size(); i++) {
                        answers.add(requests.get(i).key() == null ? answerOf(nextUnkeyed.next()) : keyed.get(i));
                    }
                    return answers;
                });
    }

    private static BatchAnswer answerOf(Registration registration) {
        return refusalOfRepeat(registration).map(refusal -> new BatchAnswer(null, refusal))
                .orElseGet(() -> new BatchAnswer(registration, null));
    }

    private Uni<List<Registration>> registerUnkeyed(List<NewReminder> requests, Caller caller) {
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

    /**
     * The keyed items, each registered as a single POST would be; the items of one key (their positions) one after
     * another, so that its repeats are answered in order, and up to {@value #KEYS_IN_FLIGHT} keys at once. Answers by
     * position.
     */
    private Uni<Map<Integer, BatchAnswer>> registerKeyedInTurn(List<NewReminder> requests,
            Collection<List<Integer>> positionsByKey, Caller caller) {
        if (positionsByKey.isEmpty()) {
            return Uni.createFrom().item(Map.of());
        }
        return Multi.createFrom().iterable(positionsByKey)
                .onItem().transformToMulti(positions -> Multi.createFrom().iterable(positions)
                        .onItem().transformToUniAndConcatenate(position -> register(requests.get(position), caller)
                                .map(registration -> new BatchAnswer(registration, null))
                                .onFailure(ProblemException.class).recoverWithItem(failure ->
                                        new BatchAnswer(null, ((ProblemException) failure).problem()))
                                .map(answer -> Map.entry(position, answer))))
                .merge(KEYS_IN_FLIGHT)
                .collect().asMap(Map.Entry::getKey, Map.Entry::getValue);
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

    /** A page of the user's reminders in the caller's tenant (an operator's: every tenant's), as filtered. */
    public Uni<ReminderPage> list(Caller caller, String userId, ListFilter filter, ListPosition after, int limit) {
        return Panache.withSession(() -> repository.listForUser(caller.visibleTenant(), userId, filter, after,
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
                throw ProblemException.of(ProblemType.REMINDER_STATE, "reminder " + id + " is "
                        + reminder.state().wireName()
                        + "; only pending, handed_off or failed reminders can be changed");
            }
            return ledger.reschedule(id, caller.visibleTenant(), reminder.version(), reminder.fireAt(),
                            changed(reminder, change), caller.name(), now())
                    .onFailure(UniqueViolation::isCauseOf).transform(e -> ProblemException.of(
                            ProblemType.FIRE_TIME_TAKEN,
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
                throw ProblemException.of(ProblemType.REMINDER_STATE, "reminder " + id + " is "
                        + reminder.state().wireName() + (reminder.state() == ReminderState.DELIVERING
                                ? "; a send is in flight and its outcome decides" : "; it can no longer be cancelled"));
            });
        });
    }

    /** A failed reminder goes round again: same version (same send key), next hand-off number, attempts reset. */
    public Uni<ReminderRow> redrive(long id, Caller caller) {
        return ledger.redrive(List.of(id), caller.visibleTenant(), caller.name(), now()).chain(redriven -> redriven.isEmpty()
                ? get(id, caller).map(reminder -> {
                    throw ProblemException.of(ProblemType.REMINDER_STATE, "reminder " + id + " is "
                            + reminder.state().wireName() + "; only failed reminders can be redriven");
                })
                : handOff.handOffIfDue(redriven.get(0), Via.REDRIVE));
    }

    /** The row's new values under the change, checked whole against the row as read, so a refused PATCH writes nothing. */
    private ReminderLedger.Rescheduled changed(ReminderRow reminder, ReminderChange change) {
        String tz = change.tz() != null ? change.tz() : reminder.tz();
        Instant fireAt = reminder.fireAt();
        if (change.reschedules()) {
            fireAt = ReminderTiming.fireAt(change.fireAt(), change.localTime(), ZoneId.of(tz));
            if (!ReminderTiming.isSupported(fireAt)) {
                // a local_time without tz is read in the stored zone, which only now is known
                throw ProblemException.invalid("local_time", "must fall between 1970-01-01T00:00:00Z and "
                        + "9999-12-30T23:59:59Z in the reminder's zone");
            }
            pastLimit.problem(fireAt).ifPresent(problem -> {
                throw ProblemException.invalid(change.fireAt() != null ? "fire_at" : "local_time", problem);
            });
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
        return ProblemException.of(ProblemType.CONCURRENT_CHANGE,
                "reminder " + id + " changed while this change was being made; try again");
    }
}
