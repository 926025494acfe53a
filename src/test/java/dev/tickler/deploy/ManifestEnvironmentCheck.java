package dev.tickler.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import io.vertx.core.json.JsonObject;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;

import dev.tickler.emulator.EmulatorOptions;
import dev.tickler.emulator.InfraiEmulator;
import dev.tickler.testing.NotifierStandIn;
import dev.tickler.testing.Ports;

/**
 * The packaged application started with exactly the environment the Knative and the Cloud Run manifests give it: the
 * ConfigMap, the Secret's keys (secrets.env.example) and Secret Manager references with freshly generated values,
 * each container's own env. Each platform's migration job migrates a real PostgreSQL; its sweeper and its serving
 * service start, answer every probe the manifest declares, the serving service registers its push subscription and
 * delivers a reminder through the queue emulator's signed push, only the sweeper exports the whole-table gauges, and
 * the serving service, stopped with a delivery in flight, hands it back and exits within the time its platform allows
 * after SIGTERM.
 * <p>
 * What the check replaces, because a container has its own network and this machine has one: the addresses (the
 * database's host and port, the notifier, Infrai's base URL: all on loopback here), the ports the application listens
 * on (free ones, with each probe of the manifest sent to the one its port stands for), and the database's TLS (the
 * PostgreSQL started here speaks none). It runs the JVM build with the JVM image's flags and the JVM overlay's memory.
 * <p>
 * Not part of the test suites (its name ends in Check): it needs the packaged application, which the build makes after
 * the tests. {@code .ci/manifest-environment} packages the application and runs it.
 */
class ManifestEnvironmentCheck {

    private static final Path APP = Path.of(System.getProperty("manifest.app", "target/quarkus-app")).toAbsolutePath();
    private static final Path LOGS = Path.of("target", "manifest-environment").toAbsolutePath();
    private static final Path DOCKERFILE_JVM = Path.of("src", "main", "docker", "Dockerfile.jvm");
    /** The JVM overlay's memory limit (deploy/knative/jvm), the container the JVM build runs in. */
    private static final String JVM_CONTAINER_MEMORY = "512m";
    private static final Duration START = Duration.ofSeconds(90);
    private static final SecureRandom RANDOM = new SecureRandom();

    private final Map<String, String> secrets = new LinkedHashMap<>();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    @Test
    void eachPlatformsManifestsMigrateServeAPushAndStopWithinTheirGrace() throws Exception {
        assertThat(APP.resolve("quarkus-run.jar")).as("the packaged application: mvn package first").exists();
        Files.createDirectories(LOGS);
        try (EmbeddedPostgres postgres = EmbeddedPostgres.builder().start();
                InfraiEmulator emulator = InfraiEmulator.start(EmulatorOptions.defaults()
                        .withApiKey(secret("INFRAI_API_KEY")));
                NotifierStandIn notifier = NotifierStandIn.start()) {
            Map<String, String> database = database(postgres);
            Loopback loopback = new Loopback(postgres.getPort(), emulator.baseUrl(), notifier.url());
            for (List<String> platform : List.of(
                    List.of("kubernetes/migration-job.yaml", "knative/sweeper.yaml", "knative/service.yaml"),
                    List.of("cloudrun/migrate-job.yaml", "cloudrun/sweeper.yaml", "cloudrun/service.yaml"))) {
                runMigration(PlatformContainer.named(platform.get(0), this::secret), loopback, postgres);
                try (Started sweeper = start(PlatformContainer.named(platform.get(1), this::secret), loopback);
                        Started serving = start(PlatformContainer.named(platform.get(2), this::secret), loopback)) {
                    sweeper.awaitProbes();
                    serving.awaitProbes();
                    serving.hasNoSwaggerUi();
                    String subscription = subscribe(serving);
                    try {
                        deliversAPush(serving, notifier, database.get("name"));
                        onlyTheSweeperReadsTheWholeTable(sweeper, serving);
                        stopsWithinItsGraceHandingBackWhatItHolds(serving, notifier, postgres);
                        sweeper.stopWithinGrace();
                    } finally {
                        emulator.unsubscribePush(subscription);
                    }
                }
            }
        }
    }

    /** The database of the reactive URL, owned by the generated user, as the managed one would be. */
    private Map<String, String> database(EmbeddedPostgres postgres) throws SQLException {
        String url = PlatformContainer.configMap().get("QUARKUS_DATASOURCE_REACTIVE_URL");
        String name = url.substring(url.lastIndexOf('/') + 1);
        try (Connection connection = postgres.getPostgresDatabase().getConnection();
                Statement statement = connection.createStatement()) {
            statement.execute("CREATE ROLE \"" + secret("QUARKUS_DATASOURCE_USERNAME") + "\" LOGIN PASSWORD '"
                    + secret("QUARKUS_DATASOURCE_PASSWORD") + "'");
            statement.execute("CREATE DATABASE \"" + name + "\" OWNER \"" + secret("QUARKUS_DATASOURCE_USERNAME") + "\"");
        }
        return Map.of("name", name);
    }

    private void runMigration(PlatformContainer job, Loopback loopback, EmbeddedPostgres postgres) throws Exception {
        Process process = launch(job, loopback, 0, 0);
        assertThat(process.waitFor(START.toSeconds(), TimeUnit.SECONDS)).as(job.name() + " finished").isTrue();
        assertThat(process.exitValue()).as(job.name() + " exit code; see " + log(job)).isZero();
        try (Connection connection = postgres.getDatabase(secret("QUARKUS_DATASOURCE_USERNAME"),
                databaseName()).getConnection();
                ResultSet rows = connection.createStatement().executeQuery(
                        "SELECT count(*) FROM flyway_schema_history WHERE success")) {
            rows.next();
            assertThat(rows.getInt(1)).as("migrations applied by " + job.name()).isPositive();
        }
    }

    private void deliversAPush(Started serving, NotifierStandIn notifier, String database) throws Exception {
        String user = "u_" + serving.container.platform().name().toLowerCase();
        long id = register(serving, user, Instant.now());
        await().atMost(Duration.ofSeconds(30)).until(() -> !notifier.receivedFor(user).isEmpty());
        assertThat(notifier.receivedFor(user).get(0).idempotencyKey()).isEqualTo("reminder:" + id + ":0");
        await().atMost(Duration.ofSeconds(10)).until(() -> "sent".equals(serving.reminder(id).getString("state")));
        assertThat(database).isNotBlank();
    }

    private void onlyTheSweeperReadsTheWholeTable(Started sweeper, Started serving) throws Exception {
        await().atMost(Duration.ofSeconds(40)).until(() -> sweeper.metrics().contains("tickler_reminders{state=\"sent\"}"));
        String servingMetrics = serving.metrics();
        assertThat(servingMetrics).contains("tickler_delivery_held").doesNotContain("tickler_reminders{")
                .doesNotContain("tickler_queue_delayed_gap");
    }

    private void stopsWithinItsGraceHandingBackWhatItHolds(Started serving, NotifierStandIn notifier,
            EmbeddedPostgres postgres) throws Exception {
        String user = "u_held_" + serving.container.platform().name().toLowerCase();
        // the provider never answers this user while the instance lives: its send is in flight at SIGTERM
        NotifierStandIn.Reply[] silent = new NotifierStandIn.Reply[5];
        Arrays.fill(silent, NotifierStandIn.Reply.okAfter(Duration.ofMinutes(3)));
        notifier.script(user, silent);
        long id = register(serving, user, Instant.now());
        await().atMost(Duration.ofSeconds(30)).until(() -> !notifier.receivedFor(user).isEmpty());

        double seconds = serving.stopWithinGrace();
        System.out.printf("manifest environment: %s stopped %.1f s after SIGTERM with a send in flight (allowed %d s)%n",
                serving.container.name(), seconds, serving.container.secondsAfterSigterm());
        try (Connection connection = postgres.getDatabase(secret("QUARKUS_DATASOURCE_USERNAME"),
                databaseName()).getConnection();
                PreparedStatement query = connection.prepareStatement("SELECT state FROM reminders WHERE id = ?")) {
            query.setLong(1, id);
            try (ResultSet rows = query.executeQuery()) {
                rows.next();
                assertThat(rows.getString(1)).as("the held reminder after the stop: handed back to the queue; its "
                        + "timeline: " + timeline(connection, id)).isEqualTo("handed_off");
            }
        }
    }

    private static List<String> timeline(Connection connection, long id) throws SQLException {
        List<String> events = new ArrayList<>();
        try (PreparedStatement query = connection.prepareStatement(
                "SELECT at, type, detail FROM reminder_events WHERE reminder_id = ? ORDER BY id")) {
            query.setLong(1, id);
            try (ResultSet rows = query.executeQuery()) {
                while (rows.next()) {
                    events.add(rows.getString(1) + " " + rows.getString(2) + " " + rows.getString(3));
                }
            }
        }
        return events;
    }

    private String subscribe(Started serving) throws Exception {
        String token = secret("PUSH_PATH_TOKEN");
        HttpResponse<String> answer = serving.post("/v1/admin/push-subscriptions", operatorKey(),
                new JsonObject().put("base_url", "http://127.0.0.1:" + serving.port).put("token", token).encode());
        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
        return "http://127.0.0.1:" + serving.port + "/q/" + token + "/reminders";
    }

    private long register(Started serving, String user, Instant fireAt) throws Exception {
        HttpResponse<String> answer = serving.post("/v1/reminders", productKey(), new JsonObject()
                .put("user_id", user).put("channel", "email").put("template", "trial_ending")
                .put("fire_at", fireAt.truncatedTo(ChronoUnit.SECONDS).toString()).encode());
        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(201);
        return new JsonObject(answer.body()).getLong("id");
    }

    private Started start(PlatformContainer container, Loopback loopback) throws IOException {
        int port = Ports.freePort();
        int managementPort = Ports.freePort();
        return new Started(container, launch(container, loopback, port, managementPort), port, managementPort);
    }

    private Process launch(PlatformContainer container, Loopback loopback, int port, int managementPort)
            throws IOException {
        Map<String, String> environment = new LinkedHashMap<>(container.environment());
        loopback.replaceAddresses(environment);
        if (port != 0) {
            environment.put("QUARKUS_HTTP_PORT", String.valueOf(port));
            environment.put("QUARKUS_MANAGEMENT_PORT", String.valueOf(managementPort));
            // what both platforms add to every serving container
            environment.put("PORT", String.valueOf(port));
            environment.put("K_SERVICE", String.valueOf(PlatformContainer.map(container.manifest(), "metadata")
                    .get("name")));
        }
        List<String> command = new ArrayList<>();
        command.add(ProcessHandle.current().info().command().orElseThrow());
        command.add("-XX:+IgnoreUnrecognizedVMOptions");
        command.addAll(imageFlags());
        command.add("-XX:MaxRAM=" + JVM_CONTAINER_MEMORY);
        command.addAll(List.of("-jar", APP.resolve("quarkus-run.jar").toString()));
        ProcessBuilder builder = new ProcessBuilder(command).directory(APP.toFile()).redirectErrorStream(true)
                .redirectOutput(log(container).toFile());
        builder.environment().clear();
        builder.environment().putAll(environment);
        return builder.start();
    }

    private static Path log(PlatformContainer container) {
        return LOGS.resolve(container.name().replace('/', '-').replace(".yaml", ".log"));
    }

    private static List<String> imageFlags() throws IOException {
        Matcher flags = Pattern.compile("(?m)^ENV JAVA_FLAGS=\"([^\"]*)\"").matcher(Files.readString(DOCKERFILE_JVM));
        assertThat(flags.find()).isTrue();
        return Arrays.stream(flags.group(1).trim().split("\\s+")).toList();
    }

    /** A generated value for each secret key, in the shape the key needs (a name before the secret for API keys). */
    private String secret(String key) {
        return secrets.computeIfAbsent(key, name -> {
            String random = HexFormat.of().formatHex(bytes());
            return switch (name) {
                case "QUARKUS_DATASOURCE_USERNAME" -> "tickler_" + random.substring(0, 8);
                case "TICKLER_API_KEYS" -> "checkout=" + random;
                case "TICKLER_API_OPERATOR_KEYS" -> "ops=" + random;
                default -> random;
            };
        });
    }

    private static byte[] bytes() {
        byte[] bytes = new byte[24];
        RANDOM.nextBytes(bytes);
        return bytes;
    }

    private String productKey() {
        return secret("TICKLER_API_KEYS").substring("checkout=".length());
    }

    private String operatorKey() {
        return secret("TICKLER_API_OPERATOR_KEYS").substring("ops=".length());
    }

    private static String databaseName() {
        String url = PlatformContainer.configMap().get("QUARKUS_DATASOURCE_REACTIVE_URL");
        return url.substring(url.lastIndexOf('/') + 1);
    }

    /** Where this machine's stand-ins listen, put where the manifests name the real parties. */
    private record Loopback(int postgresPort, String infraiUrl, String notifyUrl) {

        private static final Pattern HOST_PORT = Pattern.compile("//[^/]+/");

        void replaceAddresses(Map<String, String> environment) {
            environment.computeIfPresent("QUARKUS_DATASOURCE_REACTIVE_URL",
                    (key, url) -> HOST_PORT.matcher(url).replaceFirst("//127.0.0.1:" + postgresPort + "/"));
            environment.computeIfPresent("QUARKUS_DATASOURCE_JDBC_URL",
                    (key, url) -> HOST_PORT.matcher(url).replaceFirst("//127.0.0.1:" + postgresPort + "/")
                            .replace("sslmode=require", "sslmode=disable"));
            environment.computeIfPresent("QUARKUS_DATASOURCE_REACTIVE_POSTGRESQL_SSL_MODE", (key, mode) -> "disable");
            environment.computeIfPresent("NOTIFY_URL", (key, url) -> notifyUrl);
            environment.put("TICKLER_INFRAI_BASE_URL", infraiUrl);
        }
    }

    /** A started container: its probes, its API, its stop. */
    private final class Started implements AutoCloseable {

        final PlatformContainer container;
        final Process process;
        final int port;
        final int managementPort;

        Started(PlatformContainer container, Process process, int port, int managementPort) {
            this.container = container;
            this.process = process;
            this.port = port;
            this.managementPort = managementPort;
        }

        /** Every probe the manifest declares, sent to the port it names, answers 200. */
        void awaitProbes() {
            assertThat(container.probes()).as(container.name() + " probes").isNotEmpty();
            await().atMost(START).pollInterval(Duration.ofMillis(200)).untilAsserted(() -> {
                assertThat(process.isAlive()).as(container.name() + " runs; see " + log(container)).isTrue();
                for (PlatformContainer.Probe probe : container.probes()) {
                    int actual = probe.port() == container.servingPort() ? port : managementPort;
                    assertThat(probe.port()).as(container.name() + " " + probe.kind() + " port")
                            .isIn(container.servingPort(), 9000);
                    assertThat(status("http://127.0.0.1:" + actual + probe.path()))
                            .as(container.name() + " " + probe.kind()).isEqualTo(200);
                }
            });
        }

        /** Swagger UI belongs to dev mode and the local run (docs/developing.md); a production build leaves it out. */
        void hasNoSwaggerUi() {
            assertThat(status("http://127.0.0.1:" + managementPort + "/q/swagger-ui/")).as(container.name()
                    + " Swagger UI").isEqualTo(404);
        }

        String metrics() throws Exception {
            return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + managementPort + "/q/metrics"))
                    .build(), HttpResponse.BodyHandlers.ofString()).body();
        }

        JsonObject reminder(long id) throws Exception {
            return new JsonObject(http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
                    + "/v1/reminders/" + id)).header("Authorization", "Bearer " + productKey()).build(),
                    HttpResponse.BodyHandlers.ofString()).body());
        }

        HttpResponse<String> post(String path, String key, String body) throws Exception {
            return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                    .header("Authorization", "Bearer " + key).header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
        }

        /** SIGTERM, then the seconds until the process is gone, which must be within what its platform allows. */
        double stopWithinGrace() throws InterruptedException {
            long started = System.nanoTime();
            process.destroy();
            boolean exited = process.waitFor(container.secondsAfterSigterm() + 30L, TimeUnit.SECONDS);
            double seconds = (System.nanoTime() - started) / 1e9;
            assertThat(exited).as(container.name() + " exited after SIGTERM; see " + log(container)).isTrue();
            assertThat(seconds).as(container.name() + " seconds from SIGTERM to exit")
                    .isLessThanOrEqualTo(container.secondsAfterSigterm());
            return seconds;
        }

        private int status(String url) {
            try {
                return http.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(5)).build(),
                        HttpResponse.BodyHandlers.discarding()).statusCode();
            } catch (IOException | InterruptedException notYet) {
                return 0;
            }
        }

        @Override
        public void close() throws InterruptedException {
            if (process.isAlive()) {
                process.destroyForcibly();
                process.waitFor();
            }
        }
    }
}
