package dev.tickler.local;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;

import io.vertx.core.json.JsonObject;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;

import dev.tickler.emulator.EmulatorOptions;
import dev.tickler.emulator.InfraiEmulator;

/**
 * Everything Tickler talks to, on this machine: an embedded PostgreSQL, the Infrai emulator with a push subscription
 * to the application's own receiver, and a notifier that logs. It says where it listens through the
 * {@code local-stack.*} system properties, which the {@code %dev} profile of application.properties points the
 * application at; the rest of the wiring (API key, sweep period) is that profile's too.
 * <p>
 * Started once per JVM and stopped when the JVM exits: dev mode loads the application's classes anew on every live
 * reload and runs the main again, so "already started" is kept in a system property, not in a field of this class.
 * Never part of a production build (it is compiled with the tests, in dev mode and with -Plocal only).
 */
public final class LocalStack {

    /** Set once the stack runs in this JVM: the port of its PostgreSQL. */
    public static final String POSTGRES_PORT = "local-stack.postgres-port";
    public static final String INFRAI_PORT = "local-stack.infrai-port";
    public static final String INFRAI_KEY = "local-stack.infrai-key";
    public static final String NOTIFIER_PORT = "local-stack.notifier-port";
    public static final String PUSH_TOKEN = "local-stack.push-token";

    /** The queue the emulator pushes from: the default queue, which every channel uses unless configured. */
    public static final String QUEUE = "user-reminders";
    private static final String INFRAI_KEY_VALUE = "local-infrai-key";
    private static final String PUSH_TOKEN_VALUE = "local-push-token";

    private static LocalStack running;

    private final EmbeddedPostgres postgres;
    private final InfraiEmulator emulator;
    private final LoggingNotifier notifier;

    private LocalStack(int appPort) throws IOException {
        postgres = EmbeddedPostgres.builder().start();
        emulator = InfraiEmulator.start(EmulatorOptions.defaults().withApiKey(INFRAI_KEY_VALUE));
        notifier = LoggingNotifier.start();
        emulator.subscribePush(QUEUE, "http://127.0.0.1:" + appPort + "/q/" + PUSH_TOKEN_VALUE + "/reminders", null);
    }

    /**
     * Starts the stack for an application listening on appPort and publishes where it listens, unless it already runs
     * in this JVM (dev mode after a live reload). Answers this class loader's stack, or null when an earlier class
     * loader started the one that runs.
     */
    public static synchronized LocalStack startOnce(int appPort) {
        if (running != null || System.getProperty(POSTGRES_PORT) != null) {
            return running;
        }
        running = start(appPort);
        Runtime.getRuntime().addShutdownHook(new Thread(running::stop, "local-stack-stop"));
        running.properties().forEach(System::setProperty);
        return running;
    }

    /** A stack of its own, which nobody stops but the caller. */
    static LocalStack start(int appPort) {
        try {
            return new LocalStack(appPort);
        } catch (IOException e) {
            throw new UncheckedIOException("the local stack did not start", e);
        }
    }

    /** Where the stack listens, under the names the %dev profile reads. */
    public Map<String, String> properties() {
        return Map.of(
                POSTGRES_PORT, String.valueOf(postgres.getPort()),
                INFRAI_PORT, String.valueOf(emulator.port()),
                INFRAI_KEY, INFRAI_KEY_VALUE,
                NOTIFIER_PORT, String.valueOf(notifier.port()),
                PUSH_TOKEN, PUSH_TOKEN_VALUE);
    }

    public List<JsonObject> delivered() {
        return notifier.delivered();
    }

    public InfraiEmulator emulator() {
        return emulator;
    }

    /** Closes the emulator, the notifier with its Vert.x instance, and PostgreSQL; each even when another fails. */
    synchronized void stop() {
        try (AutoCloseable database = postgres; AutoCloseable logging = notifier; AutoCloseable queue = emulator) {
            // closed in reverse order: the queue first, so nothing is pushed into a stopping application
        } catch (Exception e) {
            throw new IllegalStateException("the local stack did not stop cleanly", e);
        }
    }
}
