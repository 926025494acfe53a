package dev.tickler.emulator;

import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/** A fresh emulator for every test, with a client for its HTTP API. */
abstract class EmulatorTestBase {

    static final String QUEUE = "reminders";
    static final JsonObject REMINDER = new JsonObject().put("reminder_id", 8801).put("version", 0);

    InfraiEmulator emulator;
    InfraiTestClient client;

    /** The options this test class runs its emulator with. */
    EmulatorOptions options() {
        return EmulatorOptions.defaults();
    }

    @BeforeEach
    void startEmulator() {
        emulator = InfraiEmulator.start(options());
        client = new InfraiTestClient(emulator);
    }

    @AfterEach
    void stopEmulator() {
        emulator.close();
    }
}
