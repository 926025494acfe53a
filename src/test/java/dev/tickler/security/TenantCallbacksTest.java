package dev.tickler.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.Test;

import io.quarkus.runtime.configuration.ConfigurationException;

import dev.tickler.config.TicklerConfig;

/**
 * A tenant's callback settings are checked at start (docs/configuration.md): an http(s) URL and a Standard Webhooks
 * secret of at least 24 bytes, both or neither; a refusal names the setting and never shows the value.
 */
class TenantCallbacksTest {

    private static final String URL = "https://hooks.example.com/tickler";
    /** whsec_ and the base64 of 24 bytes, the least a secret may have. */
    private static final String SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";

    @Test
    void aTenantWithAUrlAndASecretGetsCallbacksAndOneWithNeitherDoesNot() {
        TenantCallbacks callbacks = new TenantCallbacks(Map.of("checkout", tenant(URL, SECRET),
                "billing", tenant(null, null)));

        assertThat(callbacks.tenants()).containsExactly("checkout");
        assertThat(callbacks.of("checkout")).get().extracting(endpoint -> endpoint.url().toString()).isEqualTo(URL);
        assertThat(callbacks.of("billing")).isEmpty();
        assertThat(callbacks.any()).isTrue();
        assertThat(new TenantCallbacks(Map.of()).any()).isFalse();
    }

    @Test
    void aSecretThatIsNotWhsecAndTheBase64OfAtLeast24BytesIsRefusedByName() {
        String shortKey = "whsec_" + "c2hvcnQta2V5LW9mLTIzLWJ5dGVzLi4u".substring(0, 28); // 21 bytes
        for (String bad : new String[] { "MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", shortKey, "whsec_not base64 at all!!!!!!!",
                "whsec_" }) {
            assertThatThrownBy(() -> new TenantCallbacks(Map.of("checkout", tenant(URL, bad))))
                    .isInstanceOf(ConfigurationException.class)
                    .hasMessageContaining("tickler.tenants.\"checkout\".callback-secret")
                    .satisfies(refusal -> {
                        String key = bad.startsWith("whsec_") ? bad.substring("whsec_".length()) : bad;
                        if (!key.isEmpty()) {
                            assertThat(refusal.getMessage()).doesNotContain(key);
                        }
                    });
        }
    }

    @Test
    void aUrlThatIsNotAnAbsoluteHttpOrHttpsUrlIsRefusedByName() {
        for (String bad : new String[] { "ftp://hooks.example.com/x", "/relative/path", "hooks.example.com",
                "https://" }) {
            assertThatThrownBy(() -> new TenantCallbacks(Map.of("checkout", tenant(bad, SECRET))))
                    .isInstanceOf(ConfigurationException.class)
                    .hasMessageContaining("tickler.tenants.\"checkout\".callback-url")
                    .satisfies(refusal -> assertThat(refusal.getMessage()).doesNotContain(bad));
        }
    }

    @Test
    void aUrlWithoutASecretOrASecretWithoutAUrlIsRefused() {
        assertThatThrownBy(() -> new TenantCallbacks(Map.of("checkout", tenant(URL, null))))
                .isInstanceOf(ConfigurationException.class).hasMessageContaining("go together");
        assertThatThrownBy(() -> new TenantCallbacks(Map.of("checkout", tenant(null, SECRET))))
                .isInstanceOf(ConfigurationException.class).hasMessageContaining("go together")
                .satisfies(refusal -> assertThat(refusal.getMessage()).doesNotContain(SECRET));
    }

    @Test
    void aTenantNameNoKeyCouldHaveIsRefused() {
        assertThatThrownBy(() -> new TenantCallbacks(Map.of("check out'", tenant(URL, SECRET))))
                .isInstanceOf(ConfigurationException.class);
    }

    private static TicklerConfig.Tenant tenant(String url, String secret) {
        return new TicklerConfig.Tenant() {
            @Override
            public Optional<String> callbackUrl() {
                return Optional.ofNullable(url);
            }

            @Override
            public Optional<String> callbackSecret() {
                return Optional.ofNullable(secret);
            }
        };
    }
}
