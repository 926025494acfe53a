package dev.tickler.testing;

import java.util.Map;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;

import dev.tickler.emulator.EmulatorOptions;
import dev.tickler.emulator.InfraiEmulator;

/** The Infrai emulator on a free loopback port, wired in as the queue API; tests reach it through {@link #emulator()}. */
public class InfraiEmulatorResource implements QuarkusTestResourceLifecycleManager {

    public static final String API_KEY = "infrai-test-key";

    private static volatile InfraiEmulator emulator;

    public static InfraiEmulator emulator() {
        return emulator;
    }

    @Override
    public Map<String, String> start() {
        emulator = InfraiEmulator.start(EmulatorOptions.defaults().withApiKey(API_KEY));
        return Map.of(
                "tickler.infrai.base-url", emulator.baseUrl(),
                "tickler.infrai.api-key", API_KEY);
    }

    @Override
    public void stop() {
        if (emulator != null) {
            emulator.close();
            emulator = null;
        }
    }
}
