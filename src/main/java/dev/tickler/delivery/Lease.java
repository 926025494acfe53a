package dev.tickler.delivery;

import java.time.Instant;

/**
 * How long this instance may still act on a claim it holds (docs/delivery.md, "Leases"). {@link HeldDeliveries}
 * renews it for as long as the delivery waits or runs, so the reconciler never takes over a claim that is still held;
 * it is lost when a renewal finds the claim gone (taken over after the lease ran out), and nothing more is sent
 * under it.
 */
public final class Lease {

    private volatile Instant until;
    private volatile boolean lost;
    private volatile boolean settling;

    public Lease(Instant until) {
        this.until = until;
    }

    public Instant until() {
        return until;
    }

    boolean lost() {
        return lost;
    }

    /** Held, and for longer than the given moment. */
    boolean holdsBeyond(Instant instant) {
        return !lost && until.isAfter(instant);
    }

    void renewedUntil(Instant renewed) {
        until = renewed;
    }

    void lose() {
        lost = true;
    }

    /** The delivery is writing its outcome, which ends the claim: no renewal needed, and none that misses it is a loss. */
    void settling() {
        settling = true;
    }

    boolean renewable() {
        return !lost && !settling;
    }
}
