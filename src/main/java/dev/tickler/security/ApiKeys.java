package dev.tickler.security;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.jboss.logging.Logger;

import io.quarkus.runtime.Startup;

import dev.tickler.config.TicklerConfig;

/**
 * The configured API keys and the roles each carries (docs/contract.md#keys-and-roles). Read at start, so that two keys
 * with one name or one secret stop the application rather than make its logs and timeline ambiguous.
 */
@Startup
@Singleton
public class ApiKeys {

    static final String PRODUCT_KEYS = "tickler.api.keys";
    static final String OPERATOR_KEYS = "tickler.api.operator-keys";

    private static final Logger LOG = Logger.getLogger(ApiKeys.class);

    private static final Set<String> OPERATOR_ROLES = Set.of(Roles.PRODUCT, Roles.OPERATOR, Roles.EVERY_TENANT);

    /** What a known key stands for; the secret is not kept beside it. */
    public record ApiKey(String name, Set<String> roles) {
    }

    private final List<ApiKey> keys = new ArrayList<>();
    private final SecretSet secrets;

    @Inject
    public ApiKeys(TicklerConfig config) {
        this(config.api().keys().orElse(List.of()), config.api().operatorKeys().orElse(List.of()));
    }

    ApiKeys(List<String> productEntries, List<String> operatorEntries) {
        List<ApiKeyEntry> products = named(productEntries, PRODUCT_KEYS, "key-");
        List<ApiKeyEntry> operators = named(operatorEntries, OPERATOR_KEYS, "operator-");
        // without operator keys every product key is an operator: a single-team installation keeps working unchanged
        Set<String> productRoles = operators.isEmpty() ? Set.of(Roles.PRODUCT, Roles.OPERATOR) : Set.of(Roles.PRODUCT);
        Map<String, String> nameBySecret = new HashMap<>();
        List<String> secretsInKeyOrder = new ArrayList<>();
        for (ApiKeyEntry entry : products) {
            add(entry, productRoles, nameBySecret, secretsInKeyOrder);
        }
        for (ApiKeyEntry entry : operators) {
            add(entry, OPERATOR_ROLES, nameBySecret, secretsInKeyOrder);
        }
        this.secrets = new SecretSet(secretsInKeyOrder);
        long tenants = products.stream().map(entry -> Tenants.ofKey(entry.name())).distinct().count();
        if (operators.isEmpty() && tenants > 1) {
            LOG.warnf("the product keys belong to %d tenants and no operator key is configured (%s), so each of them is"
                    + " an operator and reads every tenant's reminders through /v1/admin and the console; configure"
                    + " operator keys to keep tenants apart there too", tenants, OPERATOR_KEYS);
        }
    }

    /** The key with this secret, compared in constant time; empty for an unknown one. */
    public Optional<ApiKey> find(String secret) {
        int index = secrets.indexOf(secret);
        return index < 0 ? Optional.empty() : Optional.of(keys.get(index));
    }

    /** The tenants of the configured keys, in name order: what metrics tag and the console offers to filter by. */
    public List<String> tenants() {
        return keys.stream().map(key -> Tenants.ofKey(key.name())).distinct().sorted().toList();
    }

    /** The key of this name, for a console session that carries the name and must not outlive the key. */
    public Optional<ApiKey> named(String name) {
        return keys.stream().filter(key -> key.name().equals(name)).findFirst();
    }

    private void add(ApiKeyEntry entry, Set<String> roles, Map<String, String> nameBySecret,
            List<String> secretsInKeyOrder) {
        if (keys.stream().anyMatch(key -> key.name().equals(entry.name()))) {
            throw ApiKeyEntry.refused("two API keys are named '" + entry.name() + "' (" + PRODUCT_KEYS + ", "
                    + OPERATOR_KEYS + "); each key needs a name of its own, and keys without one are named key-1,"
                    + " key-2, … and operator-1, operator-2, …", PRODUCT_KEYS, OPERATOR_KEYS);
        }
        String sameSecret = nameBySecret.putIfAbsent(entry.secret(), entry.name());
        if (sameSecret != null) {
            throw ApiKeyEntry.refused("the API keys '" + sameSecret + "' and '" + entry.name() + "' have the same"
                    + " secret; a secret stands for one key only", PRODUCT_KEYS, OPERATOR_KEYS);
        }
        keys.add(new ApiKey(entry.name(), roles));
        secretsInKeyOrder.add(entry.secret());
    }

    /** The entries of one property with every name filled in: the n-th entry without a name is prefix + n. */
    private static List<ApiKeyEntry> named(List<String> entries, String property, String unnamedPrefix) {
        List<ApiKeyEntry> named = new ArrayList<>();
        int unnamed = 0;
        for (int i = 0; i < entries.size(); i++) {
            ApiKeyEntry entry = ApiKeyEntry.parse(entries.get(i), property, i + 1);
            if (entry == null) {
                continue;
            }
            if (entry.name() == null) {
                unnamed++;
            }
            named.add(entry.named(unnamedPrefix + unnamed));
        }
        return named;
    }
}
