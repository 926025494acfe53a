package dev.tickler.delivery;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.quarkus.test.junit.main.LaunchResult;
import io.quarkus.test.junit.main.QuarkusMainLauncher;
import io.quarkus.test.junit.main.QuarkusMainTest;

import dev.tickler.testing.OwnApplication;

/**
 * An instance with nowhere to deliver refuses to start, naming the key, instead of claiming reminders and failing
 * every delivery ({@link NotifierUrlTest} has the URLs refused the same way).
 */
@QuarkusMainTest
@TestProfile(NotifierUrlRequiredTest.NoNotifier.class)
class NotifierUrlRequiredTest {

    /**
     * None of the suite's parties, so no notifier URL. The database is named but never reached: nothing connects at
     * start, so only the notifier URL can stop it.
     */
    public static class NoNotifier implements QuarkusTestProfile {
        @Override
        public boolean disableGlobalTestResources() {
            return true;
        }

        @Override
        public Map<String, String> getConfigOverrides() {
            return OwnApplication.withoutApiDocument(Map.of(
                    "quarkus.datasource.reactive.url", "postgresql://127.0.0.1:1/unreached",
                    "quarkus.http.test-port", "0", "quarkus.management.test-port", "0"));
        }
    }

    /** An application that started instead would run until it is stopped: the timeout turns that into a failure. */
    @Test
    @Timeout(value = 300, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void withoutANotifierUrlTheApplicationRefusesToStart(QuarkusMainLauncher launcher) {
        LaunchResult result = launcher.launch();

        assertThat(result.exitCode()).isNotZero();
        assertThat(result.getOutput() + result.getErrorOutput())
                .contains("tickler.notify.url (NOTIFY_URL) is not set");
    }
}
