package dev.tickler.db;

import java.util.function.Function;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.SqlConnection;

/**
 * A read held, in a transaction of its own, to the partial indexes of what is waiting or in flight. A partial index
 * has no statistics of its own, so the planner judges a condition such as {@code fire_at < now} by the whole table's,
 * where most rows are finished ones with a past fire_at: from a million rows on it expects most waiting rows to match
 * and reads the table in parallel (1.96 s a call at ten million rows; docs/scaling.md), while the indexes hold only the
 * few that do. Sequential scans and parallel workers are off for that transaction alone ({@code set_config(…, true)}).
 */
public final class IndexesOnly {

    /** Public, so that the plan tests read a statement as it runs. */
    public static final String HOLD = "SELECT set_config('enable_seqscan', 'off', true),"
            + " set_config('max_parallel_workers_per_gather', '0', true)";

    private IndexesOnly() {
    }

    public static <T> Uni<T> read(Pool pool, Function<SqlConnection, Uni<T>> read) {
        return pool.withTransaction(connection -> connection.query(HOLD).execute().chain(() -> read.apply(connection)));
    }
}
