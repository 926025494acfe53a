package dev.tickler.security;

import java.security.Principal;

import jakarta.ws.rs.core.SecurityContext;

import io.quarkus.security.identity.SecurityIdentity;

/**
 * Who a request acts for (docs/contract.md#keys-and-roles, docs/api.md "Tenants"): the name of the API key it carried,
 * never the secret, the tenant that key belongs to, and whether it sees every tenant (a configured operator key, or the
 * console). The timeline's {@code by} and log lines name callers by name; on the product paths a key sees and changes
 * only its tenant's reminders and schedules unless it sees every tenant. Quiet hours and what a key registers always
 * belong to its own tenant.
 */
public record Caller(String name, String tenant, boolean everyTenant) {

    /** A request without a key: the push path, or work the application starts itself. */
    public static final Caller ANONYMOUS = new Caller("anonymous", Tenants.DEFAULT, false);

    /** An operator known by its key's name, as the console's signed-in session is: it sees every tenant. */
    public static Caller operator(String name) {
        return new Caller(name, Tenants.ofKey(name), true);
    }

    public static Caller of(SecurityIdentity identity) {
        return identity == null || identity.isAnonymous() ? ANONYMOUS
                : of(identity.getPrincipal(), identity.hasRole(Roles.EVERY_TENANT));
    }

    public static Caller of(SecurityContext context) {
        return context == null ? ANONYMOUS : of(context.getUserPrincipal(), context.isUserInRole(Roles.EVERY_TENANT));
    }

    /** The caller's name, for the timeline's {@code by}. */
    public static String nameOf(SecurityContext context) {
        return of(context).name();
    }

    private static Caller of(Principal principal, boolean everyTenant) {
        return principal == null || principal.getName() == null ? ANONYMOUS
                : new Caller(principal.getName(), Tenants.ofKey(principal.getName()), everyTenant);
    }

    /** The tenant whose reminders, schedules and quiet hours this caller may see and change; null: every tenant. */
    public String visibleTenant() {
        return everyTenant ? null : tenant;
    }

    @Override
    public String toString() {
        return name;
    }
}
