package dev.tickler.ledger;

import java.time.Instant;

/**
 * A claim an instance holds on a {@code delivering} reminder, as every settling write names it: the row, its version,
 * and when the claim was made (its fencing token; the lease itself is renewed, this never changes). A claim that ran
 * out and was taken over no longer matches, and its writes change nothing.
 */
public interface HeldClaim {

    long id();

    int version();

    /** Whose reminder it is: a hand-back's message names it, so a full backlog can refuse by tenant. */
    String tenant();

    Instant claimedAt();
}
