package dev.tickler.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;

/**
 * The one PostgreSQL server of a test JVM, started for the first database asked of it and stopped by its own shutdown
 * hook with the JVM. Each database it hands out is copied from one migrated template, which takes milliseconds where
 * an initdb and the migrations take seconds.
 *
 * <p>{@link PostgresResource} calls it through the JVM's system class loader: Quarkus loads each test profile's
 * resources in a class loader of its own, where a static server would be one per profile.
 */
public final class SharedPostgres {

    private static final String TEMPLATE = "tickler_template";

    private static EmbeddedPostgres server;
    private static int databases;

    private SharedPostgres() {
    }

    /** A new database with the schema migrated, as {@code host:port/name}. */
    public static synchronized String newDatabase() {
        if (server == null) {
            try {
                server = EmbeddedPostgres.builder().start();
            } catch (IOException e) {
                throw new UncheckedIOException("embedded PostgreSQL did not start", e);
            }
            execute("CREATE DATABASE " + TEMPLATE);
            Schema.migrate(server.getDatabase("postgres", TEMPLATE));
        }
        String database = "tickler_" + ++databases;
        execute("CREATE DATABASE " + database + " TEMPLATE " + TEMPLATE);
        return "127.0.0.1:" + server.getPort() + "/" + database;
    }

    private static void execute(String sql) {
        try (Connection connection = server.getPostgresDatabase().getConnection();
                Statement statement = connection.createStatement()) {
            statement.execute(sql);
        } catch (SQLException e) {
            throw new IllegalStateException(sql + " failed", e);
        }
    }
}
