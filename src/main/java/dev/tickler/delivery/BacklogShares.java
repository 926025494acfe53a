package dev.tickler.delivery;

/**
 * Who the receiver still takes when its backlog is full (docs/delivery.md, "Fair delivery"). Below
 * tickler.delivery.max-backlog every push is taken. At it, a tenant holding less than its fair share (the backlog
 * divided among the tenants holding claims, this one counted) is taken still, up to a quarter beyond the backlog; the
 * tenant that filled it gets the 503s, and another tenant's reminders do not wait for its campaign to drain.
 */
final class BacklogShares {

    private final int maxBacklog;
    private final int ceiling;

    BacklogShares(int maxBacklog) {
        this.maxBacklog = maxBacklog;
        this.ceiling = maxBacklog + maxBacklog / 4;
    }

    /**
     * @param held claims held now, by every tenant
     * @param heldByTenant of those, the pushing tenant's
     * @param tenantsHolding tenants with at least one held claim
     */
    boolean admits(int held, int heldByTenant, int tenantsHolding) {
        if (held < maxBacklog) {
            return true;
        }
        int sharing = tenantsHolding + (heldByTenant == 0 ? 1 : 0);
        return held < ceiling && heldByTenant < maxBacklog / sharing;
    }
}
