package dev.tickler.delivery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The example notifier of docs/notifier.md, run exactly as written there (its Python block, started with python3 on a
 * free loopback port), sent what Tickler sends: it accepts a send once, answers its repeat 2xx without sending again
 * (never 409, which Tickler would read as a permanent failure), and refuses a malformed one with a 4xx.
 */
class DocumentedNotifierTest {

    private static final Path DOCUMENT = Path.of("docs", "notifier.md");
    private static final Pattern PYTHON_BLOCK = Pattern.compile("```python\\n(.*?)```", Pattern.DOTALL);
    private static final Path SCRIPT = Path.of("target", "documented-notifier", "notifier.py");
    private static final Path PRINTED = Path.of("target", "documented-notifier", "printed.txt");
    private static final Pattern LISTENING = Pattern.compile("listening on port (\\d+)");
    private static final String SEND = "{\"reminder_id\":8801,\"user_id\":\"u_4412\",\"channel\":\"email\","
            + "\"template\":\"trial_ending\",\"data\":{\"plan\":\"pro\"},\"fire_at\":\"2026-12-01T08:00:00Z\","
            + "\"tz\":\"Europe/Berlin\"}";

    /** HTTP/1.1, as Tickler's notifier client speaks: no h2c upgrade, which Python's server does not know. */
    private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private Process process;
    private int port;

    @BeforeEach
    void startTheDocumentedNotifier() throws IOException {
        String document = Files.readString(DOCUMENT);
        Matcher block = PYTHON_BLOCK.matcher(document.substring(document.indexOf("## An example receiver")));
        assertThat(block.find()).as("a python block under An example receiver in " + DOCUMENT).isTrue();
        Files.createDirectories(SCRIPT.getParent());
        Files.writeString(SCRIPT, block.group(1));
        ProcessBuilder builder = new ProcessBuilder("python3", SCRIPT.toAbsolutePath().toString())
                .redirectErrorStream(true).redirectOutput(PRINTED.toFile());
        // the notifier binds a port of its own choosing and says which: no port can be taken between choice and bind
        builder.environment().put("PORT", "0");
        process = builder.start();
        port = await().atMost(Duration.ofSeconds(30)).until(() -> {
            assertThat(process.isAlive()).as("the documented notifier runs: %s", printed()).isTrue();
            return printed().stream().map(LISTENING::matcher).filter(Matcher::matches).findFirst()
                    .map(listening -> Integer.parseInt(listening.group(1))).orElse(0);
        }, listening -> listening > 0);
    }

    @AfterEach
    void stop() {
        process.destroy();
    }

    @Test
    void aSendIsAcceptedOnceAndItsRepeatAnswered2xxWithoutSendingAgain() throws Exception {
        assertThat(post("reminder:8801:0", SEND)).isEqualTo(202);
        assertThat(post("reminder:8801:0", SEND)).isEqualTo(200);
        assertThat(post("reminder:8801:1", SEND)).isEqualTo(202);

        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(sends()).containsExactly(
                "reminder:8801:0: email trial_ending to u_4412 {'plan': 'pro'}",
                "reminder:8801:1: email trial_ending to u_4412 {'plan': 'pro'}"));
    }

    @Test
    void aMalformedSendIsRefusedAsPermanent() throws Exception {
        assertThat(post("reminder:8802:0", "{\"channel\": \"fax\"}")).isBetween(400, 499).isNotEqualTo(408)
                .isNotEqualTo(429);
        assertThat(post("", SEND)).isEqualTo(400);
        assertThat(post("reminder:8803:0", "not json")).isEqualTo(400);
    }

    private int post(String idempotencyKey, String body) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/notify"))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body));
        if (!idempotencyKey.isEmpty()) {
            request.header("Idempotency-Key", idempotencyKey);
        }
        return client.send(request.build(), HttpResponse.BodyHandlers.discarding()).statusCode();
    }

    /** What the notifier printed for the sends it accepted. */
    private static List<String> sends() throws IOException {
        return printed().stream().filter(line -> line.startsWith("reminder:")).toList();
    }

    private static List<String> printed() throws IOException {
        return Files.exists(PRINTED) ? Files.readAllLines(PRINTED) : List.of();
    }
}
