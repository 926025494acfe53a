package dev.tickler.local;

import java.util.Map;

import io.quarkus.runtime.Quarkus;
import io.quarkus.runtime.annotations.QuarkusMain;

/**
 * The main of the local build only (mvn -Plocal package): starts the {@link LocalStack}, points the application at
 * it through system properties, then runs Tickler as usual. A production build has Quarkus's own main.
 */
@QuarkusMain
public class LocalRun {

    private static final int DEFAULT_HTTP_PORT = 8080;

    public static void main(String... args) {
        int appPort = Integer.getInteger("quarkus.http.port", DEFAULT_HTTP_PORT);
        Map<String, String> config = LocalStack.start(appPort).config();
        config.forEach(System::setProperty);
        // readable log lines on a terminal, as in dev mode
        System.setProperty("quarkus.log.console.json.enabled", "false");
        System.out.printf("local stack up: API key %s, push token %s, database %s (user postgres); "
                + "Tickler on http://localhost:%d%n", LocalStack.API_KEY, LocalStack.PUSH_TOKEN,
                config.get("quarkus.datasource.jdbc.url"), appPort);
        Quarkus.run(args);
    }
}
