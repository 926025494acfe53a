package dev.tickler.security;

import java.util.Set;

import jakarta.enterprise.context.ApplicationScoped;

/**
 * The {@code tenant} tag of the registration and delivery meters (docs/operating.md, "Metrics"): a tenant of the
 * configured keys by its name, any other (rows of a key since removed) as {@value #OTHER}, so the number of series
 * stays bounded by the configuration.
 */
@ApplicationScoped
public class TenantTags {

    public static final String OTHER = "other";

    private final Set<String> configured;

    public TenantTags(ApiKeys keys) {
        this.configured = Set.copyOf(keys.tenants());
    }

    /** Every tag but {@value #OTHER}: meters that should exist before their first sample are made for each. */
    public Set<String> configured() {
        return configured;
    }

    public String of(String tenant) {
        return configured.contains(tenant) ? tenant : OTHER;
    }
}
