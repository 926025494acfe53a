package dev.tickler.local;

import io.quarkus.runtime.Quarkus;
import io.quarkus.runtime.annotations.QuarkusMain;

/**
 * The main of dev mode ({@code mvn quarkus:dev}) and of the local build ({@code mvn -Plocal package}): starts the
 * {@link LocalStack} once per JVM, then runs Tickler with the {@code %dev} profile of application.properties, which
 * points it at the stack. Dev mode runs this main again after every live reload; the stack stays as it is. A
 * production build has Quarkus's own main.
 */
@QuarkusMain
public class LocalRun {

    private static final int DEFAULT_HTTP_PORT = 8080;

    public static void main(String... args) {
        int appPort = Integer.getInteger("quarkus.http.port", DEFAULT_HTTP_PORT);
        if (LocalStack.startOnce(appPort) != null) {
            System.out.printf("local stack up: PostgreSQL on 127.0.0.1:%s (user postgres), the queue emulator on "
                    + "127.0.0.1:%s, the logging notifier on 127.0.0.1:%s; Tickler on http://localhost:%d%n",
                    System.getProperty(LocalStack.POSTGRES_PORT), System.getProperty(LocalStack.INFRAI_PORT),
                    System.getProperty(LocalStack.NOTIFIER_PORT), appPort);
        }
        // the packaged local run uses dev mode's settings; dev mode has that profile already
        System.getProperties().putIfAbsent("quarkus.profile", "dev");
        Quarkus.run(args);
    }
}
