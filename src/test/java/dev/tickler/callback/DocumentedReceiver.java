package dev.tickler.callback;

import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;

import dev.tickler.testing.Ports;

/**
 * The callback receiver that docs/api.md shows a product engineer, run exactly as written there: its Python block is
 * cut from the document, started with python3 on a free loopback port, and wired in as the callback URL of tenant
 * {@value #TENANT}. What it prints is kept in a file for the tests to read.
 */
public class DocumentedReceiver implements QuarkusTestResourceLifecycleManager {

    static final String TENANT = "docs";
    static final String SECRET = "whsec_" + Base64.getEncoder().encodeToString(
            "documented-receiver-key-bytes".getBytes(StandardCharsets.UTF_8));

    private static final Path DOCUMENT = Path.of("docs", "api.md");
    private static final Pattern PYTHON_BLOCK = Pattern.compile("```python\\n(.*?)```", Pattern.DOTALL);
    private static final Path SCRIPT = Path.of("target", "documented-receiver", "receiver.py");
    private static final Path PRINTED = Path.of("target", "documented-receiver", "printed.txt");

    private static volatile int port;
    private Process process;

    /** The receiver's code as the document's "Delivery callbacks" section shows it. */
    static String code() {
        try {
            String document = Files.readString(DOCUMENT);
            String section = document.substring(document.indexOf("### Delivery callbacks"));
            Matcher block = PYTHON_BLOCK.matcher(section);
            if (!block.find()) {
                throw new IllegalStateException("no python block under Delivery callbacks in " + DOCUMENT);
            }
            return block.group(1);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static String url() {
        return "http://127.0.0.1:" + port + "/hooks/tickler";
    }

    /** Every line the receiver printed so far. */
    static List<String> printed() {
        try {
            return Files.readAllLines(PRINTED);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public Map<String, String> start() {
        try {
            Files.createDirectories(SCRIPT.getParent());
            Files.writeString(SCRIPT, code());
            port = Ports.freePort();
            ProcessBuilder builder = new ProcessBuilder("python3", SCRIPT.toAbsolutePath().toString())
                    .redirectErrorStream(true).redirectOutput(PRINTED.toFile());
            builder.environment().put("CALLBACK_SECRET", SECRET);
            builder.environment().put("PORT", Integer.toString(port));
            process = builder.start();
            awaitListening();
        } catch (IOException e) {
            throw new UncheckedIOException("the documented receiver did not start (is python3 on the PATH?)", e);
        }
        return Map.of("tickler.tenants.\"" + TENANT + "\".callback-url", url(),
                "tickler.tenants.\"" + TENANT + "\".callback-secret", SECRET);
    }

    private void awaitListening() {
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(50)).until(() -> {
            if (!process.isAlive()) {
                throw new IllegalStateException("the documented receiver stopped: " + String.join("\n", printed()));
            }
            try (Socket socket = new Socket()) {
                socket.connect(new InetSocketAddress("127.0.0.1", port), 200);
                return true;
            } catch (IOException notYet) {
                return false;
            }
        });
    }

    @Override
    public void stop() {
        if (process != null) {
            process.destroy();
        }
    }
}
