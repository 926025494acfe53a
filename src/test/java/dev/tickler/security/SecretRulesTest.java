package dev.tickler.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

import dev.tickler.security.SecretRules.Configured;
import dev.tickler.security.SecretRules.Setting;

/**
 * The rules themselves: what counts as a secret anyone could guess, and how a refusal names it without showing it
 * ({@link SecretRulesStartTest} has the application refuse to start; every secret here contains "s3cr3t" or is a
 * placeholder, and no message may show one).
 */
class SecretRulesTest {

    private static final String GOOD = "s3cr3t-0123456789abcdef";

    @Test
    void sixteenCharactersOrMoreThatAreNoExampleAreAccepted() {
        assertThat(SecretRules.problems(List.of(
                new Configured(Setting.API_KEYS, 1, "checkout=" + GOOD),
                new Configured(Setting.API_KEYS, 2, "s3cr3t-456789abcd"),
                new Configured(Setting.OPERATOR_KEYS, 1, "ops=" + GOOD + "-ops"),
                new Configured(Setting.PUSH_TOKENS, 1, GOOD + "-token"),
                new Configured(Setting.SIGNING_SECRET, 1, GOOD + "-signing"),
                new Configured(Setting.CONSOLE_SECRET, 1, GOOD + "-console")))).isEmpty();
    }

    @Test
    void aShortSecretIsRefusedNamingItsSettingAndEntry() {
        List<String> problems = SecretRules.problems(List.of(
                new Configured(Setting.API_KEYS, 1, "checkout=" + GOOD),
                new Configured(Setting.API_KEYS, 2, "checkout2=s3cr3t-45678"),
                new Configured(Setting.OPERATOR_KEYS, 3, "s3cr3t-short"),
                new Configured(Setting.PUSH_TOKENS, 2, "s3cr3t-token"),
                new Configured(Setting.SIGNING_SECRET, 1, "s3cr3t-sign"),
                new Configured(Setting.CONSOLE_SECRET, 1, "s3cr3t-console")));

        assertThat(problems).containsExactly(
                "entry 2 of tickler.api.keys (TICKLER_API_KEYS) (named 'checkout2') is shorter than 16 characters",
                "entry 3 of tickler.api.operator-keys (TICKLER_API_OPERATOR_KEYS) is shorter than 16 characters",
                "entry 2 of tickler.push.tokens (PUSH_PATH_TOKEN) is shorter than 16 characters",
                "tickler.push.signing-secret (TICKLER_PUSH_SIGNING_SECRET) is shorter than 16 characters",
                "tickler.console.secret (TICKLER_CONSOLE_SECRET) is shorter than 16 characters");
        assertThat(SecretRules.refusal(problems)).doesNotContain("s3cr3t");
    }

    @Test
    void lengthCountsCharactersNotBytes() {
        // 15 characters, 30 bytes in UTF-8
        assertThat(SecretRules.problems(List.of(new Configured(Setting.CONSOLE_SECRET, 1,
                "\u00e9".repeat(15))))).hasSize(1);
        assertThat(SecretRules.problems(List.of(new Configured(Setting.CONSOLE_SECRET, 1,
                "\u00e9".repeat(16))))).isEmpty();
    }

    @Test
    void aShippedExampleIsRefusedWhateverItsLengthOrCase() {
        List<String> problems = SecretRules.problems(List.of(
                new Configured(Setting.API_KEYS, 1, "checkout=change-me"),
                new Configured(Setting.API_KEYS, 2, "LOCAL-DEV-KEY"),
                // 16 characters: long enough, and known to everyone who read the README
                new Configured(Setting.PUSH_TOKENS, 1, "local-push-token"),
                new Configured(Setting.CONSOLE_SECRET, 1, " change-me ")));

        assertThat(problems).containsExactly(
                "entry 1 of tickler.api.keys (TICKLER_API_KEYS) (named 'checkout') is an example value shipped with"
                        + " Tickler",
                "entry 2 of tickler.api.keys (TICKLER_API_KEYS) is an example value shipped with Tickler",
                "entry 1 of tickler.push.tokens (PUSH_PATH_TOKEN) is an example value shipped with Tickler",
                "tickler.console.secret (TICKLER_CONSOLE_SECRET) is an example value shipped with Tickler");
        assertThat(SecretRules.refusal(problems)).doesNotContain("change-me").doesNotContain("local-")
                .doesNotContainIgnoringCase("dev-key");
    }

    @Test
    void theRulesHoldOutsideTheDevAndTestProfiles() {
        assertThat(SecretRules.enforced(List.of("prod"))).isTrue();
        assertThat(SecretRules.enforced(List.of("staging", "prod"))).isTrue();
        assertThat(SecretRules.enforced(List.of("dev"))).isFalse();
        assertThat(SecretRules.enforced(List.of("test"))).isFalse();
    }
}
