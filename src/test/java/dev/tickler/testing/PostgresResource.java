package dev.tickler.testing;

import java.lang.reflect.InvocationTargetException;
import java.util.Map;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;

/**
 * A real PostgreSQL 17 that the test run starts itself (no Docker, no server installed beforehand), with the schema
 * already migrated as the migration Job leaves it in production: a database of its own for each application, on the
 * JVM's one server ({@link SharedPostgres}).
 */
public class PostgresResource implements QuarkusTestResourceLifecycleManager {

    private static volatile String reactiveUrl;

    /** For tests whose application runs in a process of its own and cannot lend them its pool. */
    public static String reactiveUrl() {
        return reactiveUrl;
    }

    @Override
    public Map<String, String> start() {
        String database = newDatabase();
        reactiveUrl = "postgresql://postgres:postgres@" + database;
        // no JDBC URL: the application runs as a serving instance does, without Flyway or a JDBC pool
        return Map.of(
                "quarkus.datasource.reactive.url", "postgresql://" + database,
                "quarkus.datasource.username", "postgres",
                "quarkus.datasource.password", "postgres");
    }

    @Override
    public void stop() {
        // the database stays until the server stops with the JVM; the next application gets a new one
    }

    /** {@link SharedPostgres} as the system class loader has it, the same for every profile's class loader. */
    private static String newDatabase() {
        try {
            Class<?> shared = Class.forName(SharedPostgres.class.getName(), true, ClassLoader.getSystemClassLoader());
            return (String) shared.getMethod("newDatabase").invoke(null);
        } catch (ClassNotFoundException e) {
            // a runner that keeps the test classes away from the system class loader: a server per class loader
            return SharedPostgres.newDatabase();
        } catch (InvocationTargetException e) {
            throw e.getCause() instanceof RuntimeException failure ? failure : new IllegalStateException(e.getCause());
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }
}
