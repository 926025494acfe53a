package dev.tickler.bench;

import java.time.Duration;

import io.vertx.mutiny.sqlclient.Pool;

import dev.tickler.testing.Schema;

/** The application's own migrations applied through a reactive pool, for benchmarks that run without the suite's resources. */
final class Migrations {

    private Migrations() {
    }

    static void apply(Pool pool) {
        for (String migration : Schema.migrations()) {
            pool.query(migration).execute().await().atMost(Duration.ofMinutes(1));
        }
    }
}
