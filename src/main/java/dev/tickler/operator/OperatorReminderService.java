package dev.tickler.operator;

import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Comparator;
import java.util.List;
import java.util.Set;

import jakarta.enterprise.context.ApplicationScoped;

import io.smallrye.mutiny.Uni;

import dev.tickler.handoff.HandOff;
import dev.tickler.ledger.ReminderLedger;
import dev.tickler.ledger.ReminderRow;
import dev.tickler.ledger.ReminderState;
import dev.tickler.problem.FieldError;
import dev.tickler.problem.ProblemException;
import dev.tickler.publish.Via;
import dev.tickler.reminder.ListPosition;
import dev.tickler.reminder.ReminderPage;

/**
 * The operator's reminder calls (docs/contract.md#operator-api): search across all users, and bulk redrive and cancel
 * under the rules of their single calls. A bulk call works in batches, each locked, changed and committed in a
 * transaction of its own and, for a redrive, published after its commit with the publisher's bounded concurrency. It
 * walks the matching reminders once, in keyset order, so a reminder that fails again meanwhile is not redriven twice by
 * one call; rows another call holds are skipped, so concurrent identical calls change each reminder once between them.
 */
@ApplicationScoped
public class OperatorReminderService {

    /** Rows per batch: each transaction holds its row locks for a few milliseconds only. */
    static final int BATCH_SIZE = 500;

    private final OperatorReminderRepository repository;
    private final ReminderLedger ledger;
    private final HandOff handOff;
    private final Clock clock;

    public OperatorReminderService(OperatorReminderRepository repository, ReminderLedger ledger, HandOff handOff,
            Clock clock) {
        this.repository = repository;
        this.ledger = ledger;
        this.handOff = handOff;
        this.clock = clock;
    }

    public Uni<ReminderPage> search(ReminderFilter filter, ListPosition after, int limit) {
        return repository.search(filter, after, limit + 1).map(rows -> ReminderPage.of(rows, limit));
    }

    /** Failed reminders go round again, each as the single redrive sends it: same version, so the same send key. */
    public Uni<BulkOutcome> redrive(ReminderFilter filter, boolean dryRun, String by) {
        return matched(BulkChange.REDRIVE, filter).chain(matched -> dryRun
                ? Uni.createFrom().item(new BulkOutcome(matched, 0))
                : redriveFrom(filter, null, 0, by).map(changed -> new BulkOutcome(matched, changed)));
    }

    /** Pending, handed-off and failed reminders are cancelled, each with a new version as the single cancel does. */
    public Uni<BulkOutcome> cancel(ReminderFilter filter, boolean dryRun, String by) {
        return matched(BulkChange.CANCEL, filter).chain(matched -> dryRun
                ? Uni.createFrom().item(new BulkOutcome(matched, 0))
                : cancelFrom(filter, BulkChange.CANCEL.statesFor(filter), 0, 0, by)
                        .map(changed -> new BulkOutcome(matched, changed)));
    }

    private Uni<Long> matched(BulkChange change, ReminderFilter filter) {
        List<FieldError> problems = change.problemsWith(filter);
        if (!problems.isEmpty()) {
            return Uni.createFrom().failure(ProblemException.invalid(problems));
        }
        return repository.count(filter, change.statesFor(filter));
    }

    /** Batch after batch until one comes back short: nothing matching is left after the last position. */
    private Uni<Long> redriveFrom(ReminderFilter filter, ListPosition after, long changedSoFar, String by) {
        return repository.inTransaction(connection -> repository.pickToRedrive(connection, filter, after, BATCH_SIZE)
                        .chain(picked -> ledger.redrive(connection, picked.stream().map(ListPosition::id).toList(), null, by,
                                now()).map(redriven -> new Batch<>(picked, redriven))))
                .call(batch -> handOff.handOffIfDue(batch.changed(), Via.REDRIVE))
                .chain(batch -> batch.picked().size() < BATCH_SIZE
                        ? Uni.createFrom().item(changedSoFar + batch.changed().size())
                        : redriveFrom(filter, lastPosition(batch.picked()), changedSoFar + batch.changed().size(), by));
    }

    private Uni<Long> cancelFrom(ReminderFilter filter, Set<ReminderState> states, long afterId, long changedSoFar,
            String by) {
        return repository.inTransaction(connection -> repository.pickToCancel(connection, filter, states, afterId,
                        BATCH_SIZE).chain(picked -> ledger.cancel(connection, picked, null, states, by, now())
                                .map(cancelled -> new Batch<>(picked, cancelled))))
                .chain(batch -> batch.picked().size() < BATCH_SIZE
                        ? Uni.createFrom().item(changedSoFar + batch.changed().size())
                        : cancelFrom(filter, states, batch.picked().stream().mapToLong(Long::longValue).max()
                                .orElseThrow(), changedSoFar + batch.changed().size(), by));
    }

    /** One batch of a bulk change: what it picked and locked, and the reminders the ledger changed. */
    private record Batch<P>(List<P> picked, List<ReminderRow> changed) {
    }

    private static ListPosition lastPosition(List<ListPosition> picked) {
        return picked.stream().max(Comparator.comparing(ListPosition::fireAt).thenComparingLong(ListPosition::id))
                .orElseThrow();
    }

    private Instant now() {
        return clock.instant().truncatedTo(ChronoUnit.MICROS);
    }
}
