package dev.tickler.security;

import java.util.regex.Pattern;

/**
 * Which tenant a key belongs to (docs/api.md, "Tenants"): the part of its name before the first '/'
 * ({@code checkout/2026-12} and {@code checkout/2027-01} are two keys of {@code checkout}, so a key is rotated without
 * losing what it made); a name without '/' is a tenant of its own; the names given to unnamed keys ({@code key-1},
 * {@code operator-1}, …) all belong to {@value #DEFAULT}, so an installation without names keeps working as one tenant.
 */
public final class Tenants {

    public static final String DEFAULT = "default";

    /** What a tenant's name may be: a key name's first part. */
    public static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_.-]{0,63}");

    private static final Pattern GENERATED = Pattern.compile("(key|operator)-[0-9]+");

    private Tenants() {
    }

    public static String ofKey(String keyName) {
        if (keyName == null || GENERATED.matcher(keyName).matches()) {
            return DEFAULT;
        }
        int slash = keyName.indexOf('/');
        return slash < 0 ? keyName : keyName.substring(0, slash);
    }
}
