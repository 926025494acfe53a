package dev.tickler.local;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;

import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;

import dev.tickler.emulator.EmulatorOptions;
import dev.tickler.emulator.InfraiEmulator;

/**
 * Everything Tickler talks to, on this machine: an embedded PostgreSQL, the Infrai emulator with a push
 * subscription to the application's own receiver, and a notifier that logs. Started once per JVM; never part of a
 * production build (it is compiled only with -Plocal, and with the tests).
 */
public final class LocalStack {

    public static final String API_KEY = "local-dev-key";
    public static final String PUSH_TOKEN = "local-push-token";
    public static final String QUEUE = "user-reminders";
    private static final String INFRAI_KEY = "local-infrai-key";

    private static LocalStack running;

    private final EmbeddedPostgres postgres;
    private final InfraiEmulator emulator;
    private final LoggingNotifier notifier;
    private final Map<String, String> config;

    private LocalStack(int appPort) throws IOException {
        postgres = EmbeddedPostgres.builder().start();
        emulator = InfraiEmulator.start(EmulatorOptions.defaults().withApiKey(INFRAI_KEY));
        notifier = new LoggingNotifier(Vertx.vertx());
        emulator.subscribePush(QUEUE, "http://127.0.0.1:" + appPort + "/q/" + PUSH_TOKEN + "/reminders", null);
        int pg = postgres.getPort();
        config = Map.ofEntries(
                Map.entry("quarkus.datasource.reactive.url", "postgresql://127.0.0.1:" + pg + "/postgres"),
                Map.entry("quarkus.datasource.jdbc.url", "jdbc:postgresql://127.0.0.1:" + pg + "/postgres"),
                Map.entry("quarkus.datasource.username", "postgres"),
                Map.entry("quarkus.datasource.password", "postgres"),
                Map.entry("tickler.infrai.base-url", emulator.baseUrl()),
                Map.entry("tickler.infrai.api-key", INFRAI_KEY),
                Map.entry("tickler.notify.url", notifier.url()),
                Map.entry("tickler.push.tokens", PUSH_TOKEN),
                Map.entry("tickler.api.keys", API_KEY),
                Map.entry("tickler.sweep.every", "1m"));
    }

    /** Starts the stack for an application listening on appPort, or answers the one already running. */
    public static synchronized LocalStack start(int appPort) {
        if (running == null) {
            try {
                running = new LocalStack(appPort);
            } catch (IOException e) {
                throw new UncheckedIOException("the local stack did not start", e);
            }
            Runtime.getRuntime().addShutdownHook(new Thread(running::stop));
        }
        return running;
    }

    /** The configuration that points the application at this stack. */
    public Map<String, String> config() {
        return config;
    }

    public List<JsonObject> delivered() {
        return notifier.delivered();
    }

    public InfraiEmulator emulator() {
        return emulator;
    }

    private synchronized void stop() {
        emulator.close();
        try {
            postgres.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
