package dev.tickler.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.pgclient.PgBuilder;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;

import dev.tickler.emulator.EmulatorOptions;
import dev.tickler.emulator.InfraiEmulator;
import dev.tickler.security.Tenants;
import dev.tickler.testing.Ports;
import dev.tickler.testing.Schema;

/**
 * The push receiver at saturation beside the original Node.js design's Express receiver, in the same run, under the
 * same load generator (32 requests in flight, closed loop) and the same notifier that answers at once. Tickler makes
 * a real claim in PostgreSQL for every push (a seeded handed_off row each) and delivers it; the Express receiver
 * writes nothing. Counts acknowledged pushes (200) per second; a 503 is not one. Needs the packaged application
 * (mvn package), Node.js, and the peer's directory: -Dpeer.seed-node=&lt;dir&gt; (its dependencies are installed with
 * npm into a copy under target/).
 */
@Tag("benchmark")
class PeerComparisonBenchmark {

    private static final int IN_FLIGHT = 32;
    private static final Duration WARM_UP = Duration.ofSeconds(60);
    private static final Duration RUN = Duration.ofSeconds(20);
    private static final int ROUNDS = 3;

    @Test
    void acknowledgedPushesPerSecondBesideTheExpressReceiver() throws Exception {
        String peer = System.getProperty("peer.seed-node");
        assumeTrue(peer != null, "set -Dpeer.seed-node to the reference peer's directory");
        Path peerCopy = installPeer(Path.of(peer));
        Vertx vertx = Vertx.vertx();
        FastNotifier notifier = new FastNotifier();
        String notifyUrl = notifier.start().get("tickler.notify.url");
        try (EmbeddedPostgres postgres = EmbeddedPostgres.builder().start();
                InfraiEmulator emulator = InfraiEmulator.start(EmulatorOptions.defaults().withApiKey("bench-queue-key"));
                LoadGenerator load = new LoadGenerator(vertx)) {
            Pool pool = Pool.newInstance(PgBuilder.pool()
                    .connectingTo("postgresql://postgres:postgres@127.0.0.1:" + postgres.getPort() + "/postgres")
                    .using(vertx).build());
            Schema.migrate(postgres.getPostgresDatabase());
            // due already: a push for a reminder not yet due is acknowledged and ignored, which claims nothing
            SeededRows rows = SeededRows.due(pool, 800_000, Tenants.DEFAULT);
            Path java = Path.of(System.getProperty("java.home"), "bin", "java");
            try (PackagedApp tickler = PackagedApp.start(java, Path.of("target", "quarkus-app").toAbsolutePath(),
                    PackagedApp.imageFlags(), "512m", postgres.getPort(), emulator.baseUrl(), notifyUrl,
                    List.of("-XX:+IgnoreUnrecognizedVMOptions"))) {
                tickler.awaitReady();
                int nodePort = Ports.freePort();
                Process express = startExpress(peerCopy, nodePort, notifyUrl);
                try {
                    // a message refused (503, the backlog full) comes again, as the queue delivers it again
                    Queue<String> refused = new ConcurrentLinkedQueue<>();
                    Supplier<Future<Integer>> toTickler = () -> {
                        String message = Optional.ofNullable(refused.poll()).orElseGet(rows::nextMessage);
                        return load.post(tickler.port, tickler.pushPath(), message).onSuccess(status -> {
                            if (status == 503) {
                                refused.add(message);
                            }
                        });
                    };
                    AtomicLong expressIds = new AtomicLong();
                    Supplier<Future<Integer>> toExpress = () -> load.post(nodePort, "/q/" + PackagedApp.PUSH_TOKEN + "/reminders",
                            "{\"reminder_id\":" + expressIds.incrementAndGet() + ",\"version\":0}");
                    load.openLoop(1_000, WARM_UP, toTickler);
                    load.openLoop(1_000, Duration.ofSeconds(10), toExpress);
                    System.out.println("push receivers at saturation, " + IN_FLIGHT + " in flight, " + RUN.toSeconds()
                            + " s a round, alternating");
                    for (int round = 1; round <= ROUNDS; round++) {
                        double ticklerRate = saturate(load, "Tickler, round " + round, toTickler);
                        double expressRate = saturate(load, "Express, round " + round, toExpress);
                        System.out.printf("  round %d: Tickler %.0f acked/s, Express %.0f acked/s: %.2f×%n", round,
                                ticklerRate, expressRate, ticklerRate / expressRate);
                    }
                } finally {
                    express.destroy();
                    express.waitFor();
                }
            }
        } finally {
            notifier.stop();
            vertx.close().toCompletionStage().toCompletableFuture().join();
        }
    }

    /** One closed-loop round; answers the pushes acknowledged (2xx) per second. */
    private static double saturate(LoadGenerator load, String label, Supplier<Future<Integer>> push) throws Exception {
        LoadGenerator.Result result = load.closedLoop(IN_FLIGHT, RUN, 10_000_000, push);
        System.out.println("  " + result.describe(label)
                + (load.failureReasons().isEmpty() ? "" : " " + load.failureReasons()));
        load.failureReasons().clear();
        return (result.latencies().length - result.failures()) / result.elapsedSeconds();
    }

    /** A copy of the peer under target/, with its npm dependencies installed once. */
    private static Path installPeer(Path peer) throws IOException, InterruptedException {
        Path copy = Path.of("target", "seed-node").toAbsolutePath();
        if (!Files.exists(copy.resolve("node_modules"))) {
            Files.createDirectories(copy);
            try (var files = Files.list(peer)) {
                for (Path file : files.filter(Files::isRegularFile).toList()) {
                    Files.copy(file, copy.resolve(file.getFileName()), StandardCopyOption.REPLACE_EXISTING);
                }
            }
            Process npm = new ProcessBuilder("npm", "install", "--no-audit", "--no-fund").directory(copy.toFile())
                    .inheritIO().start();
            assertThat(npm.waitFor()).as("npm install of the peer").isZero();
        }
        return copy;
    }

    private static Process startExpress(Path peer, int port, String notifyUrl) throws Exception {
        ProcessBuilder builder = new ProcessBuilder("node", "receiver.js").directory(peer.toFile())
                .redirectErrorStream(true).redirectOutput(Path.of("target", "express.log").toAbsolutePath().toFile());
        builder.environment().put("PUSH_PATH_TOKEN", PackagedApp.PUSH_TOKEN);
        builder.environment().put("NOTIFY_URL", notifyUrl);
        builder.environment().put("PORT", String.valueOf(port));
        Process express = builder.start();
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (System.nanoTime() < deadline) {
            try (Socket ignored = new Socket("127.0.0.1", port)) {
                return express;
            } catch (IOException notYet) {
                Thread.sleep(50);
            }
        }
        express.destroy();
        throw new IllegalStateException("the Express receiver did not listen; see target/express.log");
    }
}
