package dev.tickler.security;

import java.net.URI;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.jboss.logging.Logger;

import io.quarkus.runtime.Startup;
import io.quarkus.runtime.configuration.ConfigurationException;

import dev.tickler.config.TicklerConfig;
import dev.tickler.http.HttpUrls;

/**
 * The tenants' delivery callbacks (docs/api.md, "Delivery callbacks"): for each tenant with
 * {@code tickler.tenants."<tenant>".callback-url}, where its events go and the secret that signs them. Read at start,
 * so that a URL that is not http(s), a secret that is not the Standard Webhooks {@code whsec_} form of at least 24
 * bytes, or one of the two without the other stops the application; the refusal names the setting, never its value.
 */
@Startup
@Singleton
public class TenantCallbacks {

    static final String SECRET_PREFIX = "whsec_";
    /** The Standard Webhooks libraries' floor for a secret's key bytes. */
    static final int MIN_SECRET_BYTES = 24;

    private static final Logger LOG = Logger.getLogger(TenantCallbacks.class);

    /** One tenant's callbacks: where they go and the {@code whsec_} secret that signs them. */
    public record Endpoint(String tenant, URI url, String secret) {

        @Override
        public String toString() {
            return tenant + " -> " + url;
        }
    }

    private final SortedMap<String, Endpoint> endpoints;

    @Inject
    public TenantCallbacks(TicklerConfig config, ApiKeys keys) {
        this(config.tenants());
        Set<String> keyTenants = Set.copyOf(keys.tenants());
        endpoints.keySet().stream().filter(tenant -> !keyTenants.contains(tenant)).forEach(tenant -> LOG.warnf(
                "tickler.tenants.\"%s\" has a callback URL but no API key of tickler.api.keys or"
                        + " tickler.api.operator-keys belongs to that tenant, so it has no reminders to report", tenant));
    }

    TenantCallbacks(Map<String, TicklerConfig.Tenant> tenants) {
        SortedMap<String, Endpoint> checked = new TreeMap<>();
        tenants.forEach((tenant, settings) -> endpointOf(tenant, settings).ifPresent(
                endpoint -> checked.put(tenant, endpoint)));
        this.endpoints = checked;
    }

    /** The tenants that get callbacks, in name order. */
    public Set<String> tenants() {
        return endpoints.keySet();
    }

    public Optional<Endpoint> of(String tenant) {
        return Optional.ofNullable(endpoints.get(tenant));
    }

    public boolean any() {
        return !endpoints.isEmpty();
    }

    private static Optional<Endpoint> endpointOf(String tenant, TicklerConfig.Tenant settings) {
        String urlKey = "tickler.tenants.\"" + tenant + "\".callback-url";
        String secretKey = "tickler.tenants.\"" + tenant + "\".callback-secret";
        Optional<String> url = settings.callbackUrl().map(String::strip).filter(value -> !value.isEmpty());
        Optional<String> secret = settings.callbackSecret().map(String::strip).filter(value -> !value.isEmpty());
        if (url.isEmpty() && secret.isEmpty()) {
            return Optional.empty();
        }
        if (!Tenants.NAME.matcher(tenant).matches()) {
            throw refused("a tenant of tickler.tenants is named as no key's tenant can be (1 to 64 letters, digits,"
                    + " '_', '.' or '-', starting with a letter or digit)", urlKey);
        }
        if (url.isEmpty() || secret.isEmpty()) {
            throw refused(urlKey + " and " + secretKey + " go together: callbacks are always signed, and a secret"
                    + " without a URL signs nothing", urlKey, secretKey);
        }
        return Optional.of(new Endpoint(tenant, callbackUrl(url.get(), urlKey), checkedSecret(secret.get(), secretKey)));
    }

    private static URI callbackUrl(String url, String key) {
        return HttpUrls.absoluteHttp(url).orElseThrow(() -> refused(key + " must be an absolute http or https URL",
                key));
    }

    private static String checkedSecret(String secret, String key) {
        String problem = " must be " + SECRET_PREFIX + " followed by the base64 of at least " + MIN_SECRET_BYTES
                + " random bytes, as the Standard Webhooks libraries expect (for example: echo " + SECRET_PREFIX
                + "$(openssl rand -base64 32))";
        if (!secret.startsWith(SECRET_PREFIX)) {
            throw refused(key + problem, key);
        }
        try {
            if (Base64.getDecoder().decode(secret.substring(SECRET_PREFIX.length())).length < MIN_SECRET_BYTES) {
                throw refused(key + problem, key);
            }
        } catch (IllegalArgumentException notBase64) {
            throw refused(key + problem, key);
        }
        return secret;
    }

    private static ConfigurationException refused(String message, String... properties) {
        return new ConfigurationException(message, Set.of(properties));
    }
}
