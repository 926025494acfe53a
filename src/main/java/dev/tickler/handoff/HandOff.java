package dev.tickler.handoff;

import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

import jakarta.enterprise.context.ApplicationScoped;

import org.jboss.logging.Logger;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.opentelemetry.context.Context;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.SqlConnection;

import dev.tickler.ledger.Created;
import dev.tickler.ledger.HeldClaim;
import dev.tickler.ledger.ReminderLedger.HandOffMark;
import dev.tickler.ledger.ReminderLedger;
import dev.tickler.ledger.ReminderRow;
import dev.tickler.ledger.ReminderState;
import dev.tickler.publish.Publication;
import dev.tickler.publish.ReminderPublisher;
import dev.tickler.publish.Via;
import dev.tickler.quiethours.QuietDecision;
import dev.tickler.quiethours.QuietHours;
import dev.tickler.quiethours.QuietHoursService;
import dev.tickler.quiethours.TenantUser;

/**
 * The one door to the queue (docs/contract.md#two-horizons, docs/quiet-hours.md). A parked reminder due within the
 * queue's ceiling is handed off under the user's quiet hours: published with its exact delay and marked handed off;
 * or published for the window's end and marked deferred; or skipped; or expired when the window outlasts it.
 * Registration, a reschedule, a schedule's new occurrences, a redrive (one or in bulk) and the sweep all come through
 * {@link #handOff}; a held claim going back to the queue (a retry, a deferral at send time, a release at shutdown)
 * through {@link #handBack}. Never fails: a publish or a mark that fails leaves the row pending, logged and counted,
 * and the sweep takes it later under the same publish key.
 */
@ApplicationScoped
public class HandOff {

    private static final Logger LOG = Logger.getLogger(HandOff.class);
    /** Quiet-hours writes (deferrals, skips, expiries) of one hand-off in flight at once. */
    private static final int QUIET_WRITES_IN_FLIGHT = 16;

    /**
     * A parked reminder to hand off: what the decision and the publish need. {@code trace} is the trace the publish
     * continues; the root context starts a new trace linked to {@code origin}, the registration's traceparent.
     */
    public record Candidate(long id, String tenant, int version, int handoff, String userId, String channel,
            Instant fireAt,
            Instant expiresAt, boolean urgent, Long scheduleId, Context trace, String origin) {

        /** A row handed off while a request is served: the publish continues the request's trace. */
        public static Candidate of(ReminderRow row) {
            return of(row, Context.current());
        }

        /** A row handed off for a request served elsewhere: the publish continues that request's trace. */
        static Candidate of(ReminderRow row, Context trace) {
            return new Candidate(row.id(), row.tenant(), row.version(), row.handoff(), row.userId(),
                    row.channel().wireName(), row.fireAt(), row.expiresAt(), row.urgent(), row.scheduleId(), trace,
                    null);
        }

        HandOffMark mark(ReminderPublisher.Published outcome) {
            return new HandOffMark(id, version, handoff, outcome.messageId(), outcome.event());
        }
    }

    /**
     * What a hand-off did: each candidate's row as it now is (null where nothing changed: not due yet, or its publish
     * failed), how many were handed off (deferred ones included), how many publishes failed, and the schedules whose
     * occurrences it ended.
     */
    public record HandedOff(List<ReminderRow> rows, int handedOff, int failedPublishes, Set<Long> endedOccurrencesOf) {
    }

    private final ReminderPublisher publisher;
    private final ReminderLedger ledger;
    private final Pool pool;
    private final QuietHoursService quietHours;
    private final OccurrenceFollowUp followUp;
    private final Clock clock;
    private final Counter published;
    private final Counter publishFailures;

    public HandOff(ReminderPublisher publisher, ReminderLedger ledger, Pool pool, QuietHoursService quietHours,
            OccurrenceFollowUp followUp, Clock clock, MeterRegistry registry) {
        this.publisher = publisher;
        this.ledger = ledger;
        this.pool = pool;
        this.quietHours = quietHours;
        this.followUp = followUp;
        this.clock = clock;
        this.published = Counter.builder("tickler.handoff.published")
                .description("Reminders handed off to the queue").register(registry);
        this.publishFailures = Counter.builder("tickler.handoff.publish.failures")
                .description("Hand-offs whose publish failed; the reminder stays pending for the sweep").register(registry);
    }

    /** {@link #handOffIfDue(List, Via)} of one row; answers it as it now is. */
    public Uni<ReminderRow> handOffIfDue(ReminderRow row, Via via) {
        return handOffIfDue(List.of(row), via).map(rows -> rows.get(0));
    }

    /**
     * The same for reminders just registered, each under the quiet hours its insert read, its publish continuing the
     * trace given with it: registrations that lingered together came from as many requests.
     */
    public Uni<List<ReminderRow>> handOffCreated(List<Created> created, List<Context> traces, Via via) {
        Map<TenantUser, Optional<QuietHours>> read = new HashMap<>();
        created.forEach(one -> read.put(new TenantUser(one.reminder().tenant(), one.reminder().userId()),
                one.quietHours()));
        return handOffIfDue(created.stream().map(Created::reminder).toList(), traces, read, via, true);
    }

    /**
     * Hands off those of the rows that are pending and due within the queue's ceiling, outside any transaction of the
     * caller's; a schedule whose occurrence it ended is followed up at once. Answers every row as it now is, in order.
     */
    public Uni<List<ReminderRow>> handOffIfDue(List<ReminderRow> rows, Via via) {
        return handOffIfDue(rows, Collections.nCopies(rows.size(), Context.current()), Map.of(), via, false);
    }

    /** {@code lingered}: the rows lingered together already, so their marks go at once in one statement. */
    private Uni<List<ReminderRow>> handOffIfDue(List<ReminderRow> rows, List<Context> traces,
            Map<TenantUser, Optional<QuietHours>> read, Via via, boolean lingered) {
        List<Candidate> due = new ArrayList<>();
        for (int i = 0; i < rows.size(); i++) {
            ReminderRow row = rows.get(i);
            if (row.state() == ReminderState.PENDING && publisher.withinCeiling(row.fireAt())) {
                due.add(Candidate.of(row, traces.get(i)));
            }
        }
        if (due.isEmpty()) {
            return Uni.createFrom().item(rows);
        }
        return handOff(null, due, read, via, lingered)
                .call(outcome -> followUp(outcome.endedOccurrencesOf()))
                .map(outcome -> {
                    Map<Long, ReminderRow> changed = new HashMap<>();
                    outcome.rows().stream().filter(row -> row != null).forEach(row -> changed.put(row.id(), row));
                    return rows.stream().map(row -> changed.getOrDefault(row.id(), row)).toList();
                });
    }

    /**
     * Hands off candidates the caller holds locked in its transaction (the sweep): marked on its connection; the
     * schedules whose occurrences it ended are for the caller to follow up once it has committed.
     */
    public Uni<HandedOff> handOffLocked(SqlConnection connection, List<Candidate> candidates, Via via) {
        return handOff(connection, candidates, Map.of(), via, true);
    }

    /**
     * The schedules' next occurrences after endings the caller has committed; never fails (the sweep's backstop
     * catches what a failed follow-up leaves).
     */
    public Uni<Void> followUp(Set<Long> endedOccurrencesOf) {
        if (endedOccurrencesOf.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        return Multi.createFrom().iterable(List.copyOf(endedOccurrencesOf))
                .onItem().transformToUni(followUp::occurrenceEnded).merge(QUIET_WRITES_IN_FLIGHT)
                .collect().last().replaceWithVoid();
    }

    /**
     * A held claim back on the queue for {@code dueAt} under the next hand-off number, so the queue does not deduplicate
     * it: a retry, a deferral at send time, a release at shutdown. Answers the message id, or null when the queue did
     * not take it (the caller's write then leaves it to the reconciler).
     */
    public Uni<String> handBack(HeldClaim claim, int handoff, String channel, Instant dueAt, Via via, Context trace) {
        return publisher.publish(new Publication(claim.id(), claim.tenant(), claim.version(), handoff + 1, channel,
                        dueAt, via, trace, null))
                .invoke(ignored -> published.increment())
                .onFailure().recoverWithItem(failure -> {
                    publishFailures.increment();
                    LOG.warnf("reminder %d could not be put back on the queue (%s, via %s)", claim.id(),
                            failure.getMessage(), via.wireName());
                    return null;
                });
    }

    /**
     * The decision, the publishes and the marks; {@code connection} null: outside any transaction of the caller's.
     * {@code read}: quiet hours the caller read already (empty: the user has none), the others' are read here.
     * {@code lingered}: the candidates came together already, so nothing waits for more marks to join theirs.
     */
    private Uni<HandedOff> handOff(SqlConnection connection, List<Candidate> candidates,
            Map<TenantUser, Optional<QuietHours>> read, Via via, boolean lingered) {
        Set<TenantUser> users = candidates.stream().filter(candidate -> !candidate.urgent())
                .map(candidate -> new TenantUser(candidate.tenant(), candidate.userId()))
                .filter(user -> !read.containsKey(user)).collect(Collectors.toSet());
        Uni<Map<TenantUser, QuietHours>> quiet = users.isEmpty() ? Uni.createFrom().item(Map.of())
                : quietHours.forUsers(users).onFailure().recoverWithItem(failure -> {
                    LOG.warnf("quiet hours of %d users could not be read (%s); handed off as due, their sends check"
                            + " them again", users.size(), failure.getMessage());
                    return Map.of();
                });
        return quiet.map(found -> {
            Map<TenantUser, QuietHours> byUser = new HashMap<>(found);
            read.forEach((user, hours) -> hours.ifPresent(known -> byUser.put(user, known)));
            return byUser;
        }).chain(byUser -> decideAndPublish(connection, candidates, byUser, via, lingered));
    }

    private Uni<HandedOff> decideAndPublish(SqlConnection connection, List<Candidate> candidates,
            Map<TenantUser, QuietHours> byUser, Via via, boolean lingered) {
        SqlClient client = connection != null ? connection : pool;
        Instant now = now();
        List<QuietDecision> decisions = new ArrayList<>(candidates.size());
        List<Publication> publications = new ArrayList<>();
        List<Integer> publishedIndexes = new ArrayList<>();
        for (int i = 0; i < candidates.size(); i++) {
            Candidate candidate = candidates.get(i);
            QuietDecision decision = candidate.urgent() ? QuietDecision.ALLOWED
                    : QuietHours.check(byUser.get(new TenantUser(candidate.tenant(), candidate.userId())),
                            sendsAt(candidate, now), candidate.channel(),
                            candidate.expiresAt());
            decisions.add(decision);
            if (decision instanceof QuietDecision.Allowed) {
                publications.add(publication(candidate, candidate.fireAt(), via));
                publishedIndexes.add(i);
            } else if (decision instanceof QuietDecision.Deferred deferred) {
                publications.add(publication(candidate, deferred.dueAt(now), Via.QUIET_HOURS));
                publishedIndexes.add(i);
            }
        }
        return publisher.publishAll(publications).chain(outcomes -> {
            ReminderRow[] rows = new ReminderRow[candidates.size()];
            List<Integer> markedIndexes = new ArrayList<>();
            List<ReminderPublisher.Published> markedOutcomes = new ArrayList<>();
            // outcomes whose events no mark writes: failed publishes, deferrals, marks that found the row moved on
            List<ReminderPublisher.Published> unmarked = new ArrayList<>();
            List<HandOffMark> marks = new ArrayList<>();
            List<Uni<Void>> quietWrites = new ArrayList<>();
            Set<Long> ended = ConcurrentHashMap.newKeySet();
            int failed = 0;
            for (int p = 0; p < outcomes.size(); p++) {
                int index = publishedIndexes.get(p);
                Candidate candidate = candidates.get(index);
                ReminderPublisher.Published outcome = outcomes.get(p);
                if (!outcome.succeeded()) {
                    failed++;
                    unmarked.add(outcome);
                    LOG.warnf("hand-off of reminder %d (version %d, via %s) failed, it stays pending for the sweep: %s",
                            candidate.id(), candidate.version(), via.wireName(), outcome.failure().getMessage());
                } else if (decisions.get(index) instanceof QuietDecision.Deferred deferred) {
                    unmarked.add(outcome);
                    quietWrites.add(ledger.deferredAtHandOff(client, candidate.mark(outcome),
                                    deferred.dueAt(now), deferred.until(), now)
                            .invoke(row -> row.ifPresent(changed -> rows[index] = changed)).replaceWithVoid());
                } else {
                    markedIndexes.add(index);
                    markedOutcomes.add(outcome);
                    marks.add(candidate.mark(outcome));
                }
            }
            for (int i = 0; i < candidates.size(); i++) {
                Uni<Optional<ReminderRow>> ending = ending(client, candidates.get(i), decisions.get(i), now);
                if (ending != null) {
                    int index = i;
                    Candidate candidate = candidates.get(i);
                    quietWrites.add(ending.invoke(row -> row.ifPresent(changed -> {
                        rows[index] = changed;
                        if (candidate.scheduleId() != null) {
                            ended.add(candidate.scheduleId());
                        }
                    })).replaceWithVoid());
                }
            }
            published.increment(publications.size() - failed);
            publishFailures.increment(failed);
            int failedPublishes = failed;
            return mark(client, marks, now, lingered)
                    .onFailure().call(() -> publisher.record(markedOutcomes))
                    .invoke(marked -> {
                        for (int m = 0; m < marked.size(); m++) {
                            int index = markedIndexes.get(m);
                            ReminderPublisher.Published outcome = markedOutcomes.get(m);
                            marked.get(m).ifPresentOrElse(row -> rows[index] = row, () -> unmarked.add(outcome));
                        }
                    })
                    .call(() -> publisher.record(unmarked))
                    .call(() -> inTurn(connection, quietWrites))
                    .call(() -> connection != null ? Uni.createFrom().voidItem()
                            : reread(rows, candidates, movedOn(rows, publishedIndexes, outcomes, decisions)))
                    .map(ignored -> {
                        List<ReminderRow> changed = new ArrayList<>(rows.length);
                        Collections.addAll(changed, rows);
                        int handedOff = (int) changed.stream()
                                .filter(row -> row != null && row.state() == ReminderState.HANDED_OFF).count();
                        return new HandedOff(changed, handedOff, failedPublishes, ended);
                    });
        }).onFailure().recoverWithUni(failure -> {
            LOG.warnf("hand-off of %d reminders could not be marked (%s); they stay pending for the sweep, which"
                    + " publishes them again under the same key", candidates.size(), failure.getMessage());
            return connection == null ? Uni.createFrom().item(new HandedOff(Collections.nCopies(candidates.size(),
                    null), 0, candidates.size(), Set.of())) : Uni.createFrom().failure(failure);
        });
    }

    /**
     * Candidates the hand-off acted on whose write found the row moved on meanwhile (a push with delay 0 claimed it
     * first, a cancel): their rows are read again, so the caller answers the reminder as it now is.
     */
    private static List<Integer> movedOn(ReminderRow[] rows, List<Integer> publishedIndexes,
            List<ReminderPublisher.Published> outcomes, List<QuietDecision> decisions) {
        List<Integer> moved = new ArrayList<>();
        for (int p = 0; p < outcomes.size(); p++) {
            if (outcomes.get(p).succeeded() && rows[publishedIndexes.get(p)] == null) {
                moved.add(publishedIndexes.get(p));
            }
        }
        for (int i = 0; i < decisions.size(); i++) {
            if ((decisions.get(i) instanceof QuietDecision.Skipped || decisions.get(i) instanceof QuietDecision.Expired)
                    && rows[i] == null) {
                moved.add(i);
            }
        }
        return moved;
    }

    private Uni<Void> reread(ReminderRow[] rows, List<Candidate> candidates, List<Integer> indexes) {
        return Multi.createFrom().iterable(indexes)
                .onItem().transformToUniAndConcatenate(index -> ledger.find(candidates.get(index).id(), null)
                        .invoke(found -> found.ifPresent(row -> rows[index] = row)))
                .collect().last().replaceWithVoid();
    }

    /** The write of a decision that ends the reminder without a publish; null for one that publishes. */
    private Uni<Optional<ReminderRow>> ending(SqlClient client, Candidate candidate, QuietDecision decision,
            Instant now) {
        if (decision instanceof QuietDecision.Skipped) {
            return ledger.skippedAtHandOff(client, candidate.id(), candidate.version(), candidate.handoff(), now);
        }
        if (decision instanceof QuietDecision.Expired expired) {
            return ledger.expiredAtHandOff(client, candidate.id(), candidate.version(), candidate.handoff(),
                    expired.error(), now);
        }
        return null;
    }

    /**
     * Marks published rows handed off in one statement; a single one from the pool that did not linger with others
     * joins the other hand-offs running (a busy instance changing one reminder per request pays one round trip per
     * batch of them).
     */
    private Uni<List<Optional<ReminderRow>>> mark(SqlClient client, List<HandOffMark> marks, Instant now,
            boolean lingered) {
        if (marks.size() == 1 && client == pool && !lingered) {
            return ledger.handedOff(marks.get(0), now).map(List::of);
        }
        return ledger.handedOff(client, marks, now);
    }

    /**
     * Runs the quiet-hours writes: one after another on the caller's connection (a connection runs one statement at a
     * time), with bounded concurrency on the pool.
     */
    private static Uni<Void> inTurn(SqlConnection connection, List<Uni<Void>> writes) {
        if (writes.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        Multi<Uni<Void>> all = Multi.createFrom().iterable(writes);
        return (connection != null ? all.onItem().transformToUniAndConcatenate(write -> write)
                : all.onItem().transformToUni(write -> write).merge(QUIET_WRITES_IN_FLIGHT))
                .collect().last().replaceWithVoid();
    }

    private static Publication publication(Candidate candidate, Instant dueAt, Via via) {
        return new Publication(candidate.id(), candidate.tenant(), candidate.version(), candidate.handoff(),
                candidate.channel(), dueAt, via, candidate.trace(), candidate.origin());
    }

    /** When the reminder would be sent: at fire_at, or now when that has passed. */
    private static Instant sendsAt(Candidate candidate, Instant now) {
        return candidate.fireAt().isAfter(now) ? candidate.fireAt() : now;
    }

    private Instant now() {
        return clock.instant().truncatedTo(ChronoUnit.MICROS);
    }
}
