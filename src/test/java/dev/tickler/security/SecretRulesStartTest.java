package dev.tickler.security;

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
 * In the production profile an instance with a guessable secret refuses to start, and says which settings to change
 * without printing what they hold ({@link SecretRulesTest} has the rules one by one).
 */
@QuarkusMainTest
@TestProfile(SecretRulesStartTest.GuessableSecrets.class)
class SecretRulesStartTest {

    private static final String SHORT_PRODUCT_KEY = "s3cr3t-product";
    private static final String SHORT_TOKEN = "s3cr3t-token";
    private static final String SHORT_SIGNING_SECRET = "s3cr3t-signing";

    /**
     * The production profile with one good key and one fault in each secret setting; the database is named but never
     * reached (nothing connects at start), and the notifier URL is set, so only the secrets can stop it.
     */
    public static class GuessableSecrets implements QuarkusTestProfile {
        @Override
        public String getConfigProfile() {
            return "prod";
        }

        @Override
        public boolean disableGlobalTestResources() {
            return true;
        }

        @Override
        public Map<String, String> getConfigOverrides() {
            return OwnApplication.withoutApiDocument(Map.of(
                    "quarkus.datasource.reactive.url", "postgresql://127.0.0.1:1/unreached",
                    "tickler.notify.url", "http://127.0.0.1:1/notify",
                    "tickler.api.keys", "checkout=s3cr3t-0123456789abcdef,billing=" + SHORT_PRODUCT_KEY,
                    "tickler.api.operator-keys", "ops=change-me",
                    "tickler.push.tokens", SHORT_TOKEN,
                    "tickler.push.signing-secret", SHORT_SIGNING_SECRET,
                    "tickler.console.secret", "local-push-token",
                    "quarkus.http.test-port", "0", "quarkus.management.test-port", "0"));
        }
    }

    /** An application that started instead would run until it is stopped: the timeout turns that into a failure. */
    @Test
    @Timeout(value = 300, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void withGuessableSecretsTheApplicationRefusesToStartNamingEachSettingButNoValue(QuarkusMainLauncher launcher) {
        LaunchResult result = launcher.launch();
        String output = result.getOutput() + result.getErrorOutput();

        assertThat(result.exitCode()).isNotZero();
        assertThat(output).contains("entry 2 of tickler.api.keys (TICKLER_API_KEYS) (named 'billing') is shorter than"
                        + " 16 characters")
                .contains("entry 1 of tickler.api.operator-keys (TICKLER_API_OPERATOR_KEYS) (named 'ops') is an"
                        + " example value shipped with Tickler")
                .contains("entry 1 of tickler.push.tokens (PUSH_PATH_TOKEN) is shorter than 16 characters")
                .contains("tickler.push.signing-secret (TICKLER_PUSH_SIGNING_SECRET) is shorter than 16 characters")
                .contains("tickler.console.secret (TICKLER_CONSOLE_SECRET) is an example value shipped with Tickler")
                .doesNotContain("entry 1 of tickler.api.keys")
                .doesNotContain("s3cr3t").doesNotContain("change-me").doesNotContain("local-push-token");
    }
}
