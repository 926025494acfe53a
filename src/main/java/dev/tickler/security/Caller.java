package dev.tickler.security;

import java.security.Principal;

import jakarta.ws.rs.core.SecurityContext;

import io.quarkus.security.identity.SecurityIdentity;

/**
 * Who a request acts for: the name of the API key it carried (docs/contract.md#keys-and-roles), never the secret. The
 * timeline's {@code by} and log lines name callers with it.
 */
public record Caller(String name) {

    /** A request without a key: the push path, or work the application starts itself. */
    public static final Caller ANONYMOUS = new Caller("anonymous");

    public static Caller of(SecurityIdentity identity) {
        return identity == null || identity.isAnonymous() ? ANONYMOUS : of(identity.getPrincipal());
    }

    public static Caller of(SecurityContext context) {
        return context == null ? ANONYMOUS : of(context.getUserPrincipal());
    }

    /** The caller's name, for the timeline's {@code by}. */
    public static String nameOf(SecurityContext context) {
        return of(context).name();
    }

    private static Caller of(Principal principal) {
        return principal == null || principal.getName() == null ? ANONYMOUS : new Caller(principal.getName());
    }

    @Override
    public String toString() {
        return name;
    }
}
