package dev.tickler.bench;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.tickler.testing.Ports;

/**
 * The packaged application started as a serving instance would be (no JDBC URL, sweep off, JSON logs) against the
 * given PostgreSQL, queue and notifier, with the JVM image's flags and a container's memory limit as -XX:MaxRAM; for
 * the benchmarks that need the process itself (its start, its memory, a peer beside it).
 */
final class PackagedApp implements AutoCloseable {

    /** Long enough for the production profile's secret rules, like the API key below. */
    static final String PUSH_TOKEN = "bench-push-token-5e0c8a71f3";
    private static final Path DOCKERFILE_JVM = Path.of("src", "main", "docker", "Dockerfile.jvm");

    final Process process;
    final int port;
    final int managementPort;
    final long startedNanos;

    private PackagedApp(Process process, int port, int managementPort, long startedNanos) {
        this.process = process;
        this.port = port;
        this.managementPort = managementPort;
        this.startedNanos = startedNanos;
    }

    /** Starts it and answers at once; {@link #awaitReady()} waits for readiness. */
    static PackagedApp start(Path java, Path appDir, List<String> jvmFlags, String containerMemory, int postgresPort,
            String queueUrl, String notifyUrl, List<String> extraProperties) throws IOException {
        int port = Ports.freePort();
        int managementPort = Ports.freePort();
        List<String> command = new ArrayList<>();
        command.add(java.toString());
        command.addAll(jvmFlags);
        command.add("-XX:MaxRAM=" + containerMemory);
        command.addAll(List.of(
                "-Dquarkus.http.port=" + port,
                "-Dquarkus.management.port=" + managementPort,
                "-Dquarkus.datasource.reactive.url=postgresql://127.0.0.1:" + postgresPort + "/postgres",
                "-Dquarkus.datasource.username=postgres",
                "-Dquarkus.datasource.password=postgres",
                "-Dtickler.push.tokens=" + PUSH_TOKEN,
                "-Dtickler.api.keys=bench-api-key-2d94b6e0c5",
                "-Dtickler.infrai.base-url=" + queueUrl,
                "-Dtickler.infrai.api-key=bench-queue-key",
                "-Dtickler.notify.url=" + notifyUrl,
                "-Dtickler.sweep.enabled=false"));
        command.addAll(extraProperties);
        command.addAll(List.of("-jar", appDir.resolve("quarkus-run.jar").toString()));
        long started = System.nanoTime();
        Process process = new ProcessBuilder(command).directory(appDir.toFile()).redirectErrorStream(true)
                .redirectOutput(Path.of("target", "bench-app.log").toAbsolutePath().toFile()).start();
        return new PackagedApp(process, port, managementPort, started);
    }

    /** Polls readiness every 5 ms; answers the seconds since the process started. */
    double awaitReady() throws InterruptedException {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
        while (status(http, "http://127.0.0.1:" + managementPort + "/q/health/ready") != 200) {
            if (!process.isAlive()) {
                throw new IllegalStateException("the application died; see target/bench-app.log");
            }
            if (System.nanoTime() - startedNanos > Duration.ofSeconds(60).toNanos()) {
                throw new IllegalStateException("the application was not ready within 60 s");
            }
            Thread.sleep(5);
        }
        return (System.nanoTime() - startedNanos) / 1e9;
    }

    long rssKib() throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc", String.valueOf(process.pid()), "status"))) {
            if (line.startsWith("VmRSS:")) {
                return Long.parseLong(line.replaceAll("[^0-9]", ""));
            }
        }
        throw new IllegalStateException("no VmRSS for process " + process.pid());
    }

    String pushPath() {
        return "/q/" + PUSH_TOKEN + "/reminders";
    }

    /** The flags the JVM image starts the application with: one place, the Dockerfile's JAVA_FLAGS. */
    static List<String> imageFlags() throws IOException {
        Matcher flags = Pattern.compile("(?m)^ENV JAVA_FLAGS=\"([^\"]*)\"").matcher(Files.readString(DOCKERFILE_JVM));
        if (!flags.find()) {
            throw new IllegalStateException("no ENV JAVA_FLAGS=\"…\" in " + DOCKERFILE_JVM);
        }
        return Arrays.stream(flags.group(1).trim().split("\\s+")).filter(flag -> !flag.isEmpty()).toList();
    }

    static int status(HttpClient http, String url) throws InterruptedException {
        try {
            return http.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10)).build(),
                    HttpResponse.BodyHandlers.discarding()).statusCode();
        } catch (IOException notListeningYet) {
            return 0;
        }
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        process.waitFor();
    }
}
