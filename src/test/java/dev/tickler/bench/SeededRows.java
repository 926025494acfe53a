package dev.tickler.bench;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.Tuple;

/**
 * handed_off rows for pushes to claim, one each. They are due already: a push for a reminder not due yet is
 * acknowledged and ignored (docs/delivery.md, early pushes), which is not the path a benchmark of the push measures.
 */
final class SeededRows {

    private final long first;
    private final long last;
    private final AtomicLong next;

    private SeededRows(long first, long last) {
        this.first = first;
        this.last = last;
        this.next = new AtomicLong(first);
    }

    /** handed_off rows of a tenant, due a minute ago, so that a push claims each at once. */
    static SeededRows due(Pool pool, int rows, String tenant) {
        var ids = pool.preparedQuery("INSERT INTO reminders (user_id, channel, template, fire_at, state, version,"
                        + " tenant) SELECT 'bench_' || g, 'email', 'bench', now() - interval '1 minute', 'handed_off',"
                        + " 0, $2 FROM generate_series(1, $1) g RETURNING id")
                .execute(Tuple.of(rows, tenant)).await().atMost(Duration.ofMinutes(10));
        return rangeOf(ids);
    }

    private static SeededRows rangeOf(RowSet<Row> ids) {
        long min = Long.MAX_VALUE;
        long max = Long.MIN_VALUE;
        for (Row row : ids) {
            min = Math.min(min, row.getLong(0));
            max = Math.max(max, row.getLong(0));
        }
        return new SeededRows(min, max);
    }

    /** The id the next push claims: the pushes so far took the ids before it. */
    long nextId() {
        return next.get();
    }

    /** The push body for the next unclaimed row. */
    String nextMessage() {
        long id = next.getAndIncrement();
        if (id > last) {
            throw new IllegalStateException("the benchmark ran out of seeded rows");
        }
        return "{\"reminder_id\":" + id + ",\"version\":0}";
    }

    long taken() {
        return next.get() - first;
    }

    int left() {
        return (int) Math.max(0, last - next.get() + 1);
    }
}
