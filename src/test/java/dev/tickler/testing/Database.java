package dev.tickler.testing;

import jakarta.enterprise.context.ApplicationScoped;

import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;

/** Puts rows into states the API cannot reach yet (sent, delivering…) by writing the real table. */
@ApplicationScoped
public class Database {

    private final Pool pool;

    public Database(Pool pool) {
        this.pool = pool;
    }

    public void setState(long reminderId, String state) {
        execute("update reminders set state = $1 where id = $2", state, reminderId);
    }

    public void execute(String sql, Object... parameters) {
        pool.preparedQuery(sql).execute(Tuple.from(parameters)).await().indefinitely();
    }

    public long count(String sql, Object... parameters) {
        return pool.preparedQuery(sql).execute(Tuple.from(parameters))
                .await().indefinitely()
                .iterator().next().getLong(0);
    }
}
