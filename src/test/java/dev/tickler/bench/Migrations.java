package dev.tickler.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.stream.Stream;

import io.vertx.mutiny.sqlclient.Pool;

/** The application's own migrations, from the source tree, in version order, applied without starting it. */
final class Migrations {

    private Migrations() {
    }

    static void apply(Pool pool) throws IOException {
        try (Stream<Path> files = Files.list(Path.of("src", "main", "resources", "db", "migration"))) {
            for (Path file : files.sorted(Migrations::byVersion).toList()) {
                pool.query(Files.readString(file)).execute().await().atMost(Duration.ofMinutes(1));
            }
        }
    }

    private static int byVersion(Path left, Path right) {
        return Integer.compare(version(left), version(right));
    }

    private static int version(Path migration) {
        String name = migration.getFileName().toString();
        return Integer.parseInt(name.substring(1, name.indexOf("__")));
    }
}
