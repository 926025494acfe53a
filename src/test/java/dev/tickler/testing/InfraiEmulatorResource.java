package dev.tickler.testing;

import java.util.HashMap;
import java.util.Map;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;

import dev.tickler.emulator.EmulatorOptions;
import dev.tickler.emulator.InfraiEmulator;

/**
 * The Infrai emulator on a free loopback port, wired in as the queue API. Its queue {@value #PUSHED_QUEUE} (the
 * push channel's, in tests) has a signed push subscription to the application's own receiver, so the application
 * gets its test ports (public and management) chosen here. Tests reach the emulator through {@link #emulator()}.
 */
public class InfraiEmulatorResource implements QuarkusTestResourceLifecycleManager {

    public static final String API_KEY = "infrai-test-key";
    public static final String PUSHED_QUEUE = "pushed-reminders";
    public static final String PUSH_TOKEN = "push-token-1";
    public static final String SIGNING_SECRET = "push-signing-secret";

    /** The init argument that names another push token for the subscription (the benchmarks' production-like one). */
    public static final String PUSH_TOKEN_ARG = "push-token";

    /**
     * The init argument that serves the API over TLS ({@code "true"}), with a certificate of its own that the
     * application's JVM is told to trust: meaningful for a packaged application only, whose JVM takes the properties.
     */
    public static final String TLS_ARG = "tls";

    private static volatile InfraiEmulator emulator;
    private static volatile int managementPort;

    private String pushToken = PUSH_TOKEN;
    private boolean tls;

    public static InfraiEmulator emulator() {
        return emulator;
    }

    /** The management interface's port (health, metrics, OpenAPI) of the application under test. */
    public static int managementPort() {
        return managementPort;
    }

    @Override
    public void init(Map<String, String> initArgs) {
        pushToken = initArgs.getOrDefault(PUSH_TOKEN_ARG, PUSH_TOKEN);
        tls = Boolean.parseBoolean(initArgs.get(TLS_ARG));
    }

    @Override
    public Map<String, String> start() {
        EmulatorOptions options = EmulatorOptions.defaults().withApiKey(API_KEY);
        Map<String, String> trust = Map.of();
        if (tls) {
            LoopbackCertificate certificate = LoopbackCertificate.create();
            options = options.withTls(certificate.serverOptions());
            trust = certificate.trustedByTheJvm();
        }
        emulator = InfraiEmulator.start(options);
        int appPort = Ports.freePort();
        managementPort = Ports.freePort();
        emulator.subscribePush(PUSHED_QUEUE, "http://127.0.0.1:" + appPort + "/q/" + pushToken + "/reminders", SIGNING_SECRET);
        Map<String, String> config = new HashMap<>(Map.of(
                "tickler.infrai.base-url", emulator.baseUrl(),
                "tickler.infrai.api-key", API_KEY,
                "quarkus.http.test-port", String.valueOf(appPort),
                "quarkus.management.test-port", String.valueOf(managementPort),
                // the packaged application of an integration test runs outside test mode, where test ports mean nothing
                "quarkus.management.port", String.valueOf(managementPort)));
        config.putAll(trust);
        return config;
    }

    @Override
    public void stop() {
        if (emulator != null) {
            emulator.close();
            emulator = null;
        }
    }
}
