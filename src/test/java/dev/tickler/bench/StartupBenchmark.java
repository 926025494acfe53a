package dev.tickler.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import io.vertx.core.Vertx;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import io.vertx.pgclient.PgBuilder;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;

import dev.tickler.emulator.EmulatorOptions;
import dev.tickler.emulator.InfraiEmulator;
import dev.tickler.security.Tenants;
import dev.tickler.testing.Schema;

/**
 * From process start to serving, as a scale-from-zero platform sees it: the packaged application is started five times
 * on each runtime against a PostgreSQL that is already up and migrated, the queue emulator and a notifier that answers
 * at once. Each start is timed to the first readiness 200, to the first push answered 200 (a real claim on a seeded
 * row) and to that reminder's {@code sent}; resident memory is read at readiness and again after 10,000 pushes have
 * been claimed and delivered. The serving configuration is the production one: no JDBC URL (so no migration and no
 * JDBC pool), the sweep off, JSON logs. JVM flags are the JVM image's (src/main/docker/Dockerfile.jvm), with the
 * container's memory limit given as -XX:MaxRAM. Prints medians and ranges; run as the README says.
 */
@Tag("benchmark")
class StartupBenchmark {

    private static final int STARTS = Integer.getInteger("startup.starts", 5);
    private static final int PUSHES = 10_000;
    private static final String CONTAINER_MEMORY = System.getProperty("startup.container-memory", "512m");

    /** A JVM and a packaged application; {@code withJdbc} for builds that cannot start without a JDBC URL. */
    record Runtime(String name, Path java, Path appDir, List<String> extraFlags, boolean withJdbc) {

        Runtime(String name, Path java, Path appDir, List<String> extraFlags) {
            this(name, java, appDir, extraFlags, false);
        }
    }

    record Start(double readySeconds, double firstPushSeconds, double sentSeconds, long rssAtReadyKib,
            long rssAfterPushesKib, int refused) {
    }

    @Test
    void startUpToReadyFirstPushAndSentOnEachRuntime() throws Exception {
        List<Runtime> runtimes = runtimes();
        assertThat(runtimes).as("no packaged application found: build it first, as the README says").isNotEmpty();
        List<String> imageFlags = PackagedApp.imageFlags();
        System.out.println("startup benchmark: image flags " + imageFlags + ", container memory " + CONTAINER_MEMORY);

        Vertx vertx = Vertx.vertx();
        try (EmbeddedPostgres postgres = EmbeddedPostgres.builder().start();
                InfraiEmulator emulator = InfraiEmulator.start(EmulatorOptions.defaults().withApiKey("startup-key"))) {
            String reactiveUrl = "postgresql://postgres:postgres@127.0.0.1:" + postgres.getPort() + "/postgres";
            Pool pool = Pool.newInstance(PgBuilder.pool().connectingTo(reactiveUrl).using(vertx).build());
            Schema.migrate(postgres.getPostgresDatabase());
            FastNotifier notifier = new FastNotifier();
            String notifyUrl = notifier.start().get("tickler.notify.url");
            SeededRows rows = SeededRows.due(pool, runtimes.size() * STARTS * (PUSHES + 100), Tenants.DEFAULT);
            LoadGenerator load = new LoadGenerator(vertx);
            try {
                Map<String, List<Start>> results = new LinkedHashMap<>();
                for (Runtime runtime : runtimes) {
                    for (int i = 1; i <= STARTS; i++) {
                        Start start = measure(runtime, imageFlags, postgres.getPort(), emulator.baseUrl(), notifyUrl,
                                pool, rows, load);
                        System.out.printf("  %-28s start %d: ready %.2f s, first push %.2f s, sent %.2f s,"
                                + " RSS %d MiB at ready, %d MiB after %d pushes (%d refused with 503)%n", runtime.name(),
                                i, start.readySeconds(), start.firstPushSeconds(), start.sentSeconds(),
                                start.rssAtReadyKib() / 1024, start.rssAfterPushesKib() / 1024, PUSHES, start.refused());
                        results.computeIfAbsent(runtime.name(), name -> new ArrayList<>()).add(start);
                    }
                }
                System.out.println("startup benchmark, median (min–max) of " + STARTS + " starts:");
                System.out.printf("  %-28s %-20s %-20s %-20s %-18s %-18s%n", "runtime", "ready s", "first push s",
                        "sent s", "RSS ready MiB", "RSS after MiB");
                results.forEach((name, starts) -> System.out.printf("  %-28s %-20s %-20s %-20s %-18s %-18s%n", name,
                        summary(starts, Start::readySeconds), summary(starts, Start::firstPushSeconds),
                        summary(starts, Start::sentSeconds), summary(starts, s -> s.rssAtReadyKib() / 1024.0),
                        summary(starts, s -> s.rssAfterPushesKib() / 1024.0)));
            } finally {
                load.close();
                notifier.stop();
            }
        } finally {
            vertx.close().toCompletionStage().toCompletableFuture().join();
        }
    }

    private static Start measure(Runtime runtime, List<String> imageFlags, int postgresPort, String queueUrl,
            String notifyUrl, Pool pool, SeededRows rows, LoadGenerator load) throws Exception {
        List<String> flags = new ArrayList<>(runtime.extraFlags());
        flags.addAll(imageFlags);
        // what such a build's serving deployment set: the JDBC URL it needed, and no migration at start
        List<String> properties = runtime.withJdbc() ? List.of(
                "-Dquarkus.datasource.jdbc.url=jdbc:postgresql://127.0.0.1:" + postgresPort + "/postgres",
                "-Dquarkus.flyway.migrate-at-start=false") : List.of();
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(1)).build();
        try (PackagedApp app = PackagedApp.start(runtime.java(), runtime.appDir(), flags, CONTAINER_MEMORY,
                postgresPort, queueUrl, notifyUrl, properties)) {
            double ready = app.awaitReady();
            long rssAtReady = app.rssKib();

            String message = rows.nextMessage();
            long reminderId = Long.parseLong(message.replaceAll("[^0-9,]", "").split(",")[0]);
            int pushStatus = push(http, "http://127.0.0.1:" + app.port + app.pushPath(), message);
            double firstPush = seconds(app.startedNanos);
            assertThat(pushStatus).isEqualTo(200);
            while (!"sent".equals(state(pool, reminderId))) {
                assertThat(System.nanoTime() - app.startedNanos).isLessThan(Duration.ofSeconds(60).toNanos());
                Thread.sleep(2);
            }
            double sent = seconds(app.startedNanos);

            LoadGenerator.Result pushes = load.closedLoop(32, Duration.ofMinutes(5), PUSHES + 32,
                    () -> load.post(app.port, app.pushPath(), rows.nextMessage()));
            // a full delivery backlog answers 503, as it should; the queue would offer those again later
            assertThat(load.failureReasons().keySet()).as("refusals other than 503").allMatch("HTTP 503"::equals);
            load.failureReasons().clear();
            while (pool.preparedQuery("SELECT count(*) FROM reminders WHERE template = 'bench'"
                    + " AND state = 'delivering'").execute().await().indefinitely().iterator().next().getLong(0) > 0) {
                Thread.sleep(50);
            }
            return new Start(ready, firstPush, sent, rssAtReady, app.rssKib(), pushes.failures());
        }
    }

    /** The runtimes whose packaged application exists: JDK 17 and 25 run the fast-jar, JDK 25 also the AOT build. */
    private static List<Runtime> runtimes() {
        Path jdk17 = Path.of(System.getProperty("startup.jdk17", "/usr/lib/jvm/java-17-openjdk-amd64"), "bin", "java");
        Path jdk25 = Path.of(System.getProperty("startup.jdk25", "/usr/lib/jvm/temurin-25-jdk-amd64"), "bin", "java");
        Path fastJar = Path.of("target", "quarkus-app").toAbsolutePath();
        Path aotJar = Path.of("target", "aot", "quarkus-app").toAbsolutePath();
        List<Runtime> runtimes = new ArrayList<>();
        if (Files.exists(fastJar.resolve("quarkus-run.jar"))) {
            if (Files.exists(jdk17)) {
                // the image's flags are JDK 25's; JDK 17 takes those it knows
                runtimes.add(new Runtime("JDK 17", jdk17, fastJar, List.of("-XX:+IgnoreUnrecognizedVMOptions")));
            }
            if (Files.exists(jdk25)) {
                runtimes.add(new Runtime("JDK 25", jdk25, fastJar, List.of()));
            }
        }
        if (Files.exists(aotJar.resolve("app.aot")) && Files.exists(jdk25)) {
            runtimes.add(new Runtime("JDK 25 + AOT cache", jdk25, aotJar, List.of("-XX:AOTCache=app.aot")));
        }
        // -Dstartup.compare-app=<another build's quarkus-app>: the same starts of that build, for a before/after
        String compared = System.getProperty("startup.compare-app");
        if (compared != null) {
            Path other = Path.of(compared).toAbsolutePath();
            runtimes.add(new Runtime("JDK 17, compared build", jdk17, other, List.of("-XX:+IgnoreUnrecognizedVMOptions"),
                    true));
            runtimes.add(new Runtime("JDK 25, compared build", jdk25, other, List.of(), true));
        }
        return runtimes;
    }



    private static int push(HttpClient http, String url, String body) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.discarding()).statusCode();
    }

    private static String state(Pool pool, long id) {
        return pool.preparedQuery("SELECT state FROM reminders WHERE id = $1").execute(Tuple.of(id))
                .await().indefinitely().iterator().next().getString(0);
    }


    private static double seconds(long startedNanos) {
        return (System.nanoTime() - startedNanos) / 1e9;
    }

    private static String summary(List<Start> starts, java.util.function.ToDoubleFunction<Start> value) {
        double[] values = starts.stream().mapToDouble(value).sorted().toArray();
        double median = values.length % 2 == 1 ? values[values.length / 2]
                : (values[values.length / 2 - 1] + values[values.length / 2]) / 2;
        return String.format("%.2f (%.2f–%.2f)", median, values[0], values[values.length - 1]);
    }
}
