package dev.tickler.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;

/**
 * A real PostgreSQL 17 that the test run starts itself (no Docker, no server installed beforehand), with the schema
 * already migrated as the migration Job leaves it in production.
 */
public class PostgresResource implements QuarkusTestResourceLifecycleManager {

    private static volatile String reactiveUrl;

    private EmbeddedPostgres postgres;

    /** For tests whose application runs in a process of its own and cannot lend them its pool. */
    public static String reactiveUrl() {
        return reactiveUrl;
    }

    @Override
    public Map<String, String> start() {
        try {
            postgres = EmbeddedPostgres.builder().start();
        } catch (IOException e) {
            throw new UncheckedIOException("embedded PostgreSQL did not start", e);
        }
        Schema.migrate(postgres.getPostgresDatabase());
        int port = postgres.getPort();
        reactiveUrl = "postgresql://postgres:postgres@127.0.0.1:" + port + "/postgres";
        // no JDBC URL: the application runs as a serving instance does, without Flyway or a JDBC pool
        return Map.of(
                "quarkus.datasource.reactive.url", "postgresql://127.0.0.1:" + port + "/postgres",
                "quarkus.datasource.username", "postgres",
                "quarkus.datasource.password", "postgres");
    }

    @Override
    public void stop() {
        if (postgres != null) {
            try {
                postgres.close();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }
}
