package dev.tickler.console;

import static dev.tickler.ledger.ReminderState.FAILED;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import jakarta.enterprise.context.ApplicationScoped;

import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;

import dev.tickler.db.WireNamed;
import dev.tickler.ledger.Channel;
import dev.tickler.ledger.ReminderRow;
import dev.tickler.ledger.ReminderState;
import dev.tickler.operator.BulkOutcome;
import dev.tickler.operator.OperatorReminderService;
import dev.tickler.operator.ReminderFilter;
import dev.tickler.problem.ProblemException;
import dev.tickler.reminder.ListPosition;

/**
 * Failed reminders across users, found by filter and redriven one, several or all matching at a time
 *.
 */
@ApplicationScoped
public class DeadLetters {

    /** The dead-letter filter; a blank field does not filter. {@code fireFrom} is inclusive, {@code fireTo} exclusive. */
    public record Filter(String tenant, String userId, String channel, String template, String errorContains,
            Instant fireFrom, Instant fireTo) {

        public static Filter of(String tenant, String userId, String channel, String template, String errorContains,
                Instant fireFrom, Instant fireTo) {
            return new Filter(blankAsNull(tenant), blankAsNull(userId), blankAsNull(channel), blankAsNull(template),
                    blankAsNull(errorContains), fireFrom, fireTo);
        }

        private static String blankAsNull(String value) {
            return value == null || value.isBlank() ? null : value.strip();
        }
    }

    public record Page(List<ReminderRow> items, ListPosition next) {
    }

    /** {@code matched}: failed reminders found; {@code redriven}: those sent round again (others moved on meanwhile). */
    public record Outcome(long matched, long redriven) {
    }

    private static final String COUNT_FAILED = "SELECT count(*) FROM reminders WHERE state = " + FAILED.sql()
            + " AND id = ANY($1::bigint[])";

    private final OperatorReminderService operator;
    private final Pool pool;
    private final ReminderDesk desk;

    public DeadLetters(OperatorReminderService operator, Pool pool, ReminderDesk desk) {
        this.operator = operator;
        this.pool = pool;
        this.desk = desk;
    }

    public Uni<Page> find(Filter filter, ListPosition after, int limit) {
        return operatorFilter(filter).map(failed -> operator.search(failed, after, limit)
                        .map(page -> new Page(page.items(), page.next())))
                .orElseGet(() -> Uni.createFrom().item(new Page(List.of(), null)));
    }

    public Uni<Long> countMatching(Filter filter) {
        return operatorFilter(filter).map(failed -> operator.redrive(failed, true, null).map(BulkOutcome::matched))
                .orElseGet(() -> Uni.createFrom().item(0L));
    }

    public Uni<Long> countFailed(List<Long> ids) {
        return pool.preparedQuery(COUNT_FAILED).execute(Tuple.of(ids.toArray(Long[]::new)))
                .map(rows -> rows.iterator().next().getLong(0));
    }

    public Uni<Outcome> redrive(List<Long> ids, String by) {
        return redriveEach(ids.stream().distinct().toList(), by);
    }

    /** The operator API's bulk redrive: batches, each locked and committed on its own, published after. */
    public Uni<Outcome> redriveMatching(Filter filter, String by) {
        return operatorFilter(filter).map(failed -> operator.redrive(failed, false, by)
                        .map(outcome -> new Outcome(outcome.matched(), outcome.changed())))
                .orElseGet(() -> Uni.createFrom().item(new Outcome(0, 0)));
    }

    /**
     * One after another: each redrive is its own transaction in the request's reactive session, which cannot run
     * two at once. One that moved on meanwhile (a conflict) counts as matched, not redriven.
     */
    private Uni<Outcome> redriveEach(List<Long> ids, String by) {
        return Multi.createFrom().iterable(ids)
                .onItem().transformToUniAndConcatenate(id -> desk.redrive(id, by).replaceWith(1L)
                        .onFailure(DeadLetters::isRefused).recoverWithItem(0L))
                .collect().asList()
                .map(results -> new Outcome(results.size(), results.stream().mapToLong(Long::longValue).sum()));
    }

    /** Failed reminders matching the console's filter; empty when its channel is none a reminder can have. */
    private static Optional<ReminderFilter> operatorFilter(Filter filter) {
        Channel channel = null;
        if (filter.channel() != null) {
            Optional<Channel> known = WireNamed.find(Channel.class, filter.channel());
            if (known.isEmpty()) {
                return Optional.empty();
            }
            channel = known.get();
        }
        return Optional.of(new ReminderFilter(Set.of(ReminderState.FAILED), channel, filter.template(), filter.userId(),
                filter.errorContains(), filter.fireFrom(), filter.fireTo(), filter.tenant(), null, null, null));
    }

    private static boolean isRefused(Throwable failure) {
        return failure instanceof ProblemException;
    }
}
