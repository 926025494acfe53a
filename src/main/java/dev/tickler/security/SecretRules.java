package dev.tickler.security;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

import jakarta.inject.Singleton;

import io.quarkus.runtime.Startup;
import io.quarkus.runtime.configuration.ConfigUtils;
import io.quarkus.runtime.configuration.ConfigurationException;

import dev.tickler.config.TicklerConfig;

/**
 * Secrets nobody can guess or copy from our own files (docs/operating.md, "Secrets"): outside the dev and test
 * profiles every API key, push token, the push signing secret and the console secret must be at least
 * {@value #MIN_LENGTH} characters and none of the example values this project ships. Checked once at start, every
 * setting at once; a refusal names each setting (and a key's position and name), never a value.
 * <p>
 * The dev profile is exempt: dev mode and the packaged local run use it, with the well-known local key, and listen on
 * loopback only. So is the test profile, whose values are the suite's.
 */
@Startup
@Singleton
public class SecretRules {

    static final int MIN_LENGTH = 16;

    /**
     * Every example value of these settings that this project ships, lower case: in deploy/, docs/, the README,
     * application.properties and the local stack. {@code SecretPlaceholdersTest} reads those files and fails when one
     * holds a value missing here, so a new example cannot be forgotten.
     */
    static final Set<String> PLACEHOLDERS = Set.of(
            "change-me",          // deploy/kubernetes/secrets.env.example
            "local-dev-key",      // %dev API key: README, .ci, dev mode and the local run
            "local-push-token",   // the local stack's push token (README, docs/developing.md)
            "local-infrai-key",   // the local stack's queue key
            "test-key-1", "test-key-2", "push-token-1", "push-token-2"); // %test of application.properties

    /** The profiles whose settings are this project's own examples. */
    private static final Set<String> EXEMPT_PROFILES = Set.of("dev", "test");

    /** A setting that holds secrets, by its key and the environment variable the deployments set it with. */
    enum Setting {
        API_KEYS(ApiKeys.PRODUCT_KEYS, "TICKLER_API_KEYS", true),
        OPERATOR_KEYS(ApiKeys.OPERATOR_KEYS, "TICKLER_API_OPERATOR_KEYS", true),
        PUSH_TOKENS("tickler.push.tokens", "PUSH_PATH_TOKEN", false),
        SIGNING_SECRET("tickler.push.signing-secret", "TICKLER_PUSH_SIGNING_SECRET", false),
        CONSOLE_SECRET("tickler.console.secret", "TICKLER_CONSOLE_SECRET", false);

        final String key;
        final String environment;
        /** Entries are {@code name=secret} or a bare secret; only the secret is judged. */
        final boolean named;

        Setting(String key, String environment, boolean named) {
            this.key = key;
            this.environment = environment;
            this.named = named;
        }

        @Override
        public String toString() {
            return key + " (" + environment + ")";
        }
    }

    /** One configured value of a setting: its 1-based position in the list (1 for a single value). */
    record Configured(Setting setting, int position, String value) {
    }

    public SecretRules(TicklerConfig config) {
        if (!enforced(ConfigUtils.getProfiles())) {
            return;
        }
        List<Configured> configured = new ArrayList<>();
        add(configured, Setting.API_KEYS, config.api().keys());
        add(configured, Setting.OPERATOR_KEYS, config.api().operatorKeys());
        add(configured, Setting.PUSH_TOKENS, config.push().tokens());
        add(configured, Setting.SIGNING_SECRET, config.push().signingSecret().map(List::of));
        add(configured, Setting.CONSOLE_SECRET, config.console().secret().map(List::of));
        List<String> problems = problems(configured);
        if (!problems.isEmpty()) {
            Set<String> keys = new LinkedHashSet<>();
            configured.forEach(value -> keys.add(value.setting().key));
            throw new ConfigurationException(refusal(problems), keys);
        }
    }

    /** Whether the rules apply under these active profiles: under any but dev and test. */
    static boolean enforced(Collection<String> profiles) {
        return profiles.stream().noneMatch(EXEMPT_PROFILES::contains);
    }

    /** Why each value that breaks a rule does; empty when none does. Never holds a value. */
    static List<String> problems(List<Configured> configured) {
        List<String> problems = new ArrayList<>();
        for (Configured value : configured) {
            String secret = value.value().strip();
            String which = describe(value);
            if (value.setting().named) {
                ApiKeyEntry entry = ApiKeyEntry.parse(value.value(), value.setting().key, value.position());
                secret = entry.secret();
                which = entry.name() == null ? which : which + " (named '" + entry.name() + "')";
            }
            if (isPlaceholder(secret)) {
                problems.add(which + " is an example value shipped with Tickler");
            } else if (secret.codePointCount(0, secret.length()) < MIN_LENGTH) {
                problems.add(which + " is shorter than " + MIN_LENGTH + " characters");
            }
        }
        return problems;
    }

    static boolean isPlaceholder(String secret) {
        return PLACEHOLDERS.contains(secret.strip().toLowerCase(Locale.ROOT));
    }

    static String refusal(List<String> problems) {
        return "secrets anyone could guess: " + String.join("; ", problems) + ". Outside the dev and test profiles"
                + " every API key, push token, push signing secret and console secret needs at least " + MIN_LENGTH
                + " characters and must not be an example from Tickler's files; generate each, for example with"
                + " `openssl rand -hex 32` (docs/operating.md, \"Secrets\")";
    }

    private static String describe(Configured value) {
        return value.setting().named || value.setting() == Setting.PUSH_TOKENS
                ? "entry " + value.position() + " of " + value.setting()
                : String.valueOf(value.setting());
    }

    /** The non-blank values of a setting, with their positions among all its entries. */
    private static void add(List<Configured> configured, Setting setting, Optional<List<String>> values) {
        List<String> entries = values.orElse(List.of());
        for (int i = 0; i < entries.size(); i++) {
            if (!entries.get(i).isBlank()) {
                configured.add(new Configured(setting, i + 1, entries.get(i)));
            }
        }
    }
}
