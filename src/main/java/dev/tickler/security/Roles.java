package dev.tickler.security;

/** The roles (docs/contract.md#keys-and-roles), as resources name them in {@code @RolesAllowed}. */
public final class Roles {

    /** Product services: reminders, schedules, users' quiet hours. */
    public static final String PRODUCT = "product";

    /** Operators: every product call, plus the admin calls, sweep, reconcile and the console. */
    public static final String OPERATOR = "operator";

    /**
     * Configured operator keys: they see every tenant on the product paths too. Product keys that are operators only
     * because no operator key is configured keep to their tenant there, so naming keys is enough to isolate tenants.
     */
    public static final String EVERY_TENANT = "every-tenant";

    private Roles() {
    }
}
