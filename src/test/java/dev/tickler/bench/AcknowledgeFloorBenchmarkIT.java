package dev.tickler.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import io.vertx.core.Vertx;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.pgclient.PgBuilder;

import dev.tickler.security.Tenants;
import dev.tickler.testing.Ports;
import dev.tickler.testing.PostgresResource;

/**
 * The floor under {@link PushAcknowledgeBenchmarkIT} on this machine: the same load generator, at 1,000 requests/s,
 * against a bare Vert.x server in a JVM of its own ({@link FloorServer}) that answers at once, then against the same
 * server answering after the receiver's claim UPDATE in the same embedded PostgreSQL. No Quarkus, no deliveries; no
 * receiver can be faster than these. Prints its figures; run with {@code mvn -Pbenchmark verify
 * -Dit.test=AcknowledgeFloorBenchmarkIT -Dtest=none -Dsurefire.failIfNoSpecifiedTests=false}.
 */
@Tag("benchmark")
class AcknowledgeFloorBenchmarkIT {

    private static final int RATE = 1_000;
    private static final Duration WARM_UP = Duration.ofSeconds(30);
    private static final Duration ROUND = Duration.ofSeconds(10);
    private static final int ROUNDS = 3;

    private final MachineHiccups hiccups = new MachineHiccups();

    @Test
    void acknowledgeFloorWithoutAndWithTheClaim() throws Exception {
        PostgresResource postgres = new PostgresResource();
        postgres.start();
        Vertx vertx = Vertx.vertx();
        Pool pool = Pool.newInstance(PgBuilder.pool().connectingTo(PostgresResource.reactiveUrl()).using(vertx).build());
        try (LoadGenerator load = new LoadGenerator(vertx)) {
            SeededRows rows = SeededRows.due(pool, 2 * RATE * (int) (WARM_UP.toSeconds() + ROUNDS * ROUND.toSeconds()),
                    Tenants.DEFAULT);
            run(load, rows, "bare Vert.x server", "bare");
            run(load, rows, "bare Vert.x server with the claim UPDATE", "claim", PostgresResource.reactiveUrl());
        } finally {
            hiccups.close();
            vertx.close().toCompletionStage().toCompletableFuture().join();
            postgres.stop();
        }
    }

    private void run(LoadGenerator load, SeededRows rows, String label, String mode, String... more) throws Exception {
        int port = Ports.freePort();
        Process server = startServer(port, mode, more);
        try {
            load.openLoop(RATE, WARM_UP, () -> load.post(port, "/", rows.nextMessage()));
            System.out.println("acknowledge floor, " + label);
            for (int round = 1; round <= ROUNDS; round++) {
                hiccups.restart();
                LoadGenerator.Result result = load.openLoop(RATE, ROUND, () -> load.post(port, "/", rows.nextMessage()));
                System.out.println(result.describe("round " + round + ", offered " + RATE + "/s")
                        + (load.failureReasons().isEmpty() ? "" : " " + load.failureReasons()));
                System.out.println("    " + hiccups.describe());
                assertThat(result.failures()).isZero();
            }
        } finally {
            server.destroy();
            server.waitFor();
        }
    }

    /**
     * The server JVM, with the flags the {@code benchmark} profile gives the application's JVM in the push benchmark
     * ({@code quarkus.test.arg-line}); returns once it listens, and from then on echoes whatever the server prints.
     */
    private static Process startServer(int port, String mode, String... more) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        Stream.of(System.getProperty("quarkus.test.arg-line", "").split("\\s+")).filter(flag -> !flag.isEmpty())
                .forEach(command::add);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), FloorServer.class.getName(), mode,
                String.valueOf(port)));
        command.addAll(List.of(more));
        Process server = new ProcessBuilder(command).redirectErrorStream(true).start();
        BufferedReader output = new BufferedReader(new InputStreamReader(server.getInputStream(), StandardCharsets.UTF_8));
        for (String line = output.readLine(); line != null; line = output.readLine()) {
            if (line.startsWith("listening")) {
                Thread echo = new Thread(() -> output.lines().forEach(rest -> System.out.println("floor server: " + rest)));
                echo.setDaemon(true);
                echo.start();
                return server;
            }
        }
        throw new IllegalStateException("the floor server ended before it listened, exit " + server.exitValue());
    }
}
