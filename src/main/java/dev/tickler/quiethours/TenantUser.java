package dev.tickler.quiethours;

/** A user as quiet hours know them: within a tenant (docs/api.md, "Tenants"). */
public record TenantUser(String tenant, String userId) {
}
