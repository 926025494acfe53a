package dev.tickler.db;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.Tuple;

/**
 * One prepared single-row statement run once per parameter set, pipelined with one Sync: one round trip and one
 * transaction for the whole batch, and every row keeps its own plan (the primary key's, typically) whatever the
 * statistics say. The shape {@link StatementBatcher} hands its batches to.
 */
public final class PipelinedStatement {

    private PipelinedStatement() {
    }

    /** A statement for a batcher: runs the batch and answers one result per parameter set, in order. */
    public static <R> Function<List<Tuple>, Uni<List<R>>> of(Pool pool, String sql, Function<RowSet<Row>, R> answer) {
        return batch -> pool.preparedQuery(sql).executeBatch(batch).map(first -> {
            List<R> answers = new ArrayList<>(batch.size());
            for (RowSet<Row> rows = first; rows != null; rows = rows.next()) {
                answers.add(answer.apply(rows));
            }
            return answers;
        });
    }
}
