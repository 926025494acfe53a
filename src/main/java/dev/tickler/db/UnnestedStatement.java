package dev.tickler.db;

import java.lang.reflect.Array;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.Function;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;

/**
 * A whole batch of single-row writes as one set-based statement: the i-th parameter of every write goes into the i-th
 * array parameter, which the statement unnests {@code WITH ORDINALITY}, and every row it returns names the write it
 * answers in a {@value #POSITION} column (1-based, in the order given). A write that matched no row gets the
 * unanswered value; so does each repeat of a write that another one in the batch already made, since one statement
 * changes a row once.
 * <p>
 * Postgres plans, starts and commits the statement once per batch instead of once per row: on the push path that is
 * most of what each row cost it. The shape {@link StatementBatcher} hands its batches to; it hands them over in lock
 * order, which a nested loop over the unnested arrays keeps.
 */
public final class UnnestedStatement {

    /** The column of each returned row that holds its write's position in the batch. */
    public static final String POSITION = "position";

    private UnnestedStatement() {
    }

    /**
     * @param columns the Java type of each write parameter, in order; every write has exactly these
     * @param answered one write's answer from the row returned for it
     * @param unanswered the answer of a write that returned no row
     */
    public static <R> Function<List<Tuple>, Uni<List<R>>> of(Pool pool, String sql, List<Class<?>> columns,
            Function<Row, R> answered, R unanswered) {
        return batch -> pool.preparedQuery(sql).execute(arraysOf(batch, columns)).map(rows -> {
            List<R> answers = new ArrayList<>(Collections.nCopies(batch.size(), unanswered));
            for (Row row : rows) {
                answers.set(row.getLong(POSITION).intValue() - 1, answered.apply(row));
            }
            return answers;
        });
    }

    /**
     * {@code unnest(…)} of a batch's arrays, for a statement run again and again: the first array behind a scalar
     * subquery, which the planner does not look into, so that it reckons with its default of 10 rows whether it plans
     * for the arrays at hand or for any. Counting the arrays, a custom plan for a small batch looks cheaper than the
     * generic plan, and a connection whose first batches were small plans the statement afresh on every call (a claim
     * of 3.6 rows: 400 µs of planning, as much as running it); reckoned alike, the generic plan wins from the sixth
     * call on. The other arrays are unnested beside the first, so the rows are as many as the longest array holds.
     */
    public static String unnest(String firstArray, String... moreArrays) {
        StringBuilder unnest = new StringBuilder("unnest((SELECT ").append(firstArray).append(')');
        for (String array : moreArrays) {
            unnest.append(", ").append(array);
        }
        return unnest.append(')').toString();
    }

    /** The statement's parameters: one array per column, holding that column of every write. */
    public static Tuple arraysOf(List<Tuple> batch, List<Class<?>> columns) {
        Tuple arrays = Tuple.tuple();
        for (int column = 0; column < columns.size(); column++) {
            Object[] values = (Object[]) Array.newInstance(columns.get(column), batch.size());
            for (int write = 0; write < batch.size(); write++) {
                values[write] = batch.get(write).getValue(column);
            }
            arrays.addValue(values);
        }
        return arrays;
    }
}
