package dev.tickler.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import javax.sql.DataSource;

/**
 * The application's own migrations, from the source tree, in version order, applied without the application: the
 * suite and the benchmarks run it as production serves, without a JDBC URL, as the migration Job has already done
 * this part. (The local run still migrates at start through Flyway, which its test covers.)
 */
public final class Schema {

    private static final Path MIGRATIONS = Path.of("src", "main", "resources", "db", "migration");

    private Schema() {
    }

    public static void migrate(DataSource dataSource) {
        try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement()) {
            for (String migration : migrations()) {
                statement.execute(migration);
            }
        } catch (SQLException e) {
            throw new IllegalStateException("the migrations did not apply", e);
        }
    }

    /** Every migration's SQL, V1 first. */
    public static List<String> migrations() {
        try (Stream<Path> files = Files.list(MIGRATIONS)) {
            List<String> scripts = new ArrayList<>();
            for (Path file : files.sorted((left, right) -> Integer.compare(version(left), version(right))).toList()) {
                scripts.add(Files.readString(file));
            }
            return scripts;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static int version(Path migration) {
        String name = migration.getFileName().toString();
        return Integer.parseInt(name.substring(1, name.indexOf("__")));
    }
}
