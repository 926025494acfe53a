package dev.tickler.console;

import static dev.tickler.db.SqlTimestamps.utc;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;

import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;

import dev.tickler.problem.ProblemException;
import dev.tickler.reminder.ListPosition;
import dev.tickler.reminder.ReminderRow;

/**
 * Dead letters read from the reminders table with plain SQL, until the operator API's search and bulk redrive (SPEC
 * §13) exist. Every redrive goes through {@link ReminderDesk#redrive}, the single redrive's rules and timeline.
 */
@ApplicationScoped
public class TableDeadLetters implements DeadLetters {

    private static final int REDRIVE_BATCH = 200;

    /** $1..$4: user_id, channel, template, and a LIKE pattern for last_error; null does not filter. */
    private static final String MATCHES = "state = 'failed'"
            + " AND ($1::text IS NULL OR user_id = $1) AND ($2::text IS NULL OR channel = $2)"
            + " AND ($3::text IS NULL OR template = $3)"
            + " AND ($4::text IS NULL OR last_error ILIKE $4 ESCAPE '\\')";

    private static final String FIND = "SELECT " + ReminderRow.COLUMNS + " FROM reminders WHERE " + MATCHES
            + " AND (fire_at, id) > ($5, $6) ORDER BY fire_at, id LIMIT $7";
    private static final String COUNT = "SELECT count(*) FROM reminders WHERE " + MATCHES;
    private static final String COUNT_FAILED = "SELECT count(*) FROM reminders WHERE state = 'failed'"
            + " AND id = ANY($1::bigint[])";
    private static final String NEXT_IDS = "SELECT id FROM reminders WHERE " + MATCHES
            + " AND id > $5 ORDER BY id LIMIT $6";

    private final Pool pool;
    private final ReminderDesk desk;

    public TableDeadLetters(Pool pool, ReminderDesk desk) {
        this.pool = pool;
        this.desk = desk;
    }

    @Override
    public Uni<Page> find(Filter filter, ListPosition after, int limit) {
        ListPosition from = after != null ? after : new ListPosition(Instant.EPOCH.minusSeconds(1), 0);
        return pool.preparedQuery(FIND).execute(filterTuple(filter).addOffsetDateTime(utc(from.fireAt()))
                        .addLong(from.id()).addInteger(limit + 1))
                .map(rows -> {
                    List<ReminderRow> found = new ArrayList<>();
                    for (Row row : rows) {
                        found.add(ReminderRow.from(row));
                    }
                    return found.size() <= limit ? new Page(found, null)
                            : new Page(found.subList(0, limit), ListPosition.of(found.get(limit - 1)));
                });
    }

    @Override
    public Uni<Long> countMatching(Filter filter) {
        return pool.preparedQuery(COUNT).execute(filterTuple(filter)).map(rows -> rows.iterator().next().getLong(0));
    }

    @Override
    public Uni<Long> countFailed(List<Long> ids) {
        return pool.preparedQuery(COUNT_FAILED).execute(Tuple.of(ids.toArray(Long[]::new)))
                .map(rows -> rows.iterator().next().getLong(0));
    }

    @Override
    public Uni<Outcome> redrive(List<Long> ids, String by) {
        return redriveEach(ids.stream().distinct().toList(), by);
    }

    /** Walks the matches by id, so a reminder that fails again while this runs is not taken twice. */
    @Override
    public Uni<Outcome> redriveMatching(Filter filter, String by) {
        return redriveMatchingAfter(filter, by, 0, new Outcome(0, 0));
    }

    private Uni<Outcome> redriveMatchingAfter(Filter filter, String by, long afterId, Outcome soFar) {
        return pool.preparedQuery(NEXT_IDS).execute(filterTuple(filter).addLong(afterId).addInteger(REDRIVE_BATCH))
                .chain(rows -> {
                    List<Long> ids = new ArrayList<>();
                    rows.forEach(row -> ids.add(row.getLong(0)));
                    if (ids.isEmpty()) {
                        return Uni.createFrom().item(soFar);
                    }
                    return redriveEach(ids, by).chain(batch -> {
                        Outcome total = new Outcome(soFar.matched() + batch.matched(),
                                soFar.redriven() + batch.redriven());
                        return ids.size() < REDRIVE_BATCH ? Uni.createFrom().item(total)
                                : redriveMatchingAfter(filter, by, ids.get(ids.size() - 1), total);
                    });
                });
    }

    /**
     * One after another: each redrive is its own transaction in the request's reactive session, which cannot run
     * two at once. One that moved on meanwhile (a conflict) counts as matched, not redriven.
     */
    private Uni<Outcome> redriveEach(List<Long> ids, String by) {
        return Multi.createFrom().iterable(ids)
                .onItem().transformToUniAndConcatenate(id -> desk.redrive(id, by).replaceWith(1L)
                        .onFailure(TableDeadLetters::isRefused).recoverWithItem(0L))
                .collect().asList()
                .map(results -> new Outcome(results.size(), results.stream().mapToLong(Long::longValue).sum()));
    }

    private static Tuple filterTuple(Filter filter) {
        return Tuple.tuple().addString(filter.userId()).addString(filter.channel()).addString(filter.template())
                .addString(filter.errorContains() == null ? null : "%" + likeEscaped(filter.errorContains()) + "%");
    }

    private static String likeEscaped(String text) {
        return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_");
    }

    private static boolean isRefused(Throwable failure) {
        return failure instanceof ProblemException;
    }
}
