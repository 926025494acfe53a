package dev.tickler.testing;

import java.time.Duration;

import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Every {@code await()} of the suite checks its condition at once and then every 50 ms, where Awaitility's defaults
 * wait 100 ms before the first check and between checks: hundreds of waits, most of them for something already true
 * or true within milliseconds. Registered for every class through the JUnit extension registry under
 * src/test/resources/META-INF/services (the pom turns its detection on).
 *
 * <p>The defaults are set on the test class's own copy of Awaitility: Quarkus loads a {@code @QuarkusTest} class and
 * its libraries in the class loader of its application, one per profile.
 */
public class AwaitilityDefaults implements BeforeAllCallback {

    @Override
    public void beforeAll(ExtensionContext context) throws ReflectiveOperationException {
        Class<?> awaitility = Class.forName("org.awaitility.Awaitility", true,
                context.getRequiredTestClass().getClassLoader());
        awaitility.getMethod("setDefaultPollDelay", Duration.class).invoke(null, Duration.ZERO);
        awaitility.getMethod("setDefaultPollInterval", Duration.class).invoke(null, Duration.ofMillis(50));
    }
}
