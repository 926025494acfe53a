package dev.tickler.security;

import java.util.Set;
import java.util.regex.Pattern;

import io.quarkus.runtime.configuration.ConfigurationException;

/**
 * One entry of {@code tickler.api.keys} or {@code tickler.api.operator-keys} (docs/contract.md#keys-and-roles):
 * {@code name=secret}, split on the first {@code =}, or a bare secret, whose name is null until its list names it.
 * Refusals name an entry by its position, never by its text, which may be a secret.
 */
record ApiKeyEntry(String name, String secret) {

    /**
     * Names go into logs, the timeline and metrics labels: a tenant's name, then optionally '/' and a name of the key
     * within it (docs/api.md, "Tenants").
     */
    private static final Pattern NAME = Pattern.compile(Tenants.NAME.pattern() + "(/[A-Za-z0-9_.-]{1,64})?");

    /** The entry at the 1-based position of the property; null when it is blank. */
    static ApiKeyEntry parse(String entry, String property, int position) {
        String text = entry.strip();
        if (text.isEmpty()) {
            return null;
        }
        int equals = text.indexOf('=');
        if (equals < 0) {
            return new ApiKeyEntry(null, text);
        }
        String name = text.substring(0, equals);
        String secret = text.substring(equals + 1).strip();
        if (!NAME.matcher(name).matches()) {
            throw refused("entry " + position + " of " + property + " has a name (the part before the first '=')"
                    + " that is not a tenant of 1 to 64 letters, digits, '_', '.' or '-', optionally followed by '/'"
                    + " and a key name of the same characters", property);
        }
        // a bare base64 secret ends in '=' padding: read as name=secret, its body would become a name in the logs
        if (secret.chars().allMatch(c -> c == '=')) {
            throw refused("entry " + position + " of " + property + " has nothing but '=' after its name; a secret"
                    + " that ends in '=' needs a name in front: name=secret", property);
        }
        return new ApiKeyEntry(name, secret);
    }

    ApiKeyEntry named(String generatedName) {
        return name != null ? this : new ApiKeyEntry(generatedName, secret);
    }

    static ConfigurationException refused(String message, String... properties) {
        return new ConfigurationException(message, Set.of(properties));
    }
}
