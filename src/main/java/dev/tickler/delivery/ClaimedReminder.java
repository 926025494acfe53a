package dev.tickler.delivery;

import java.time.Instant;
import java.util.Map;

import io.opentelemetry.context.Context;

import dev.tickler.ledger.Claim;
import dev.tickler.ledger.HeldClaim;
import dev.tickler.publish.ReminderKeys;
import dev.tickler.quiethours.QuietHours;

/**
 * A reminder this instance holds in {@code delivering}. {@code claimedAt} is the fencing token: every later write
 * names it, so a claim that expired and was taken over can no longer change the row; its {@link Lease} is renewed
 * while the claim is held. {@code dueAt} is the send time it had: its fire_at, or later when a deferral or a
 * retry moved it. {@code scheduleId} is null for a one-shot reminder. {@code quietHours} are its user's as the claim read them, null when there are none
 * or the reminder is urgent. {@code trace} is the trace its delivery belongs to (the push's, or the reconciler's
 * take-over), which its notifier calls and a retry's publish continue.
 */
public record ClaimedReminder(long id, String tenant, int version, int handoff, int attempts, String userId, String channel,
        String template, Map<String, Object> data, Instant fireAt, Instant dueAt, String tz, Instant expiresAt, Instant claimedAt,
        Lease lease, Long scheduleId, QuietHours quietHours, Context trace) implements HeldClaim {

    /** The claim as the ledger made it, held under a lease of its own, in no trace yet. */
    static ClaimedReminder of(Claim claim) {
        return new ClaimedReminder(claim.id(), claim.tenant(), claim.version(), claim.handoff(), claim.attempts(), claim.userId(),
                claim.channel(), claim.template(), claim.data(), claim.fireAt(), claim.dueAt(), claim.tz(),
                claim.expiresAt(), claim.claimedAt(), new Lease(claim.leaseUntil()), claim.scheduleId(),
                claim.quietHours(), Context.root());
    }

    public String sendKey() {
        return ReminderKeys.sendKey(id, version);
    }

    /** The same claim after a failed attempt, its retry due at {@code retryAt}. */
    public ClaimedReminder retriedAt(Instant retryAt, int attemptsMade) {
        return new ClaimedReminder(id, tenant, version, handoff, attemptsMade, userId, channel, template, data, fireAt,
                retryAt, tz, expiresAt, claimedAt, lease, scheduleId, quietHours, trace);
    }

    /** The same claim when the trace does not change (tracing off): no copy on the push path. */
    public ClaimedReminder withTrace(Context deliveryTrace) {
        return deliveryTrace == trace ? this : new ClaimedReminder(id, tenant, version, handoff, attempts, userId, channel,
                template, data, fireAt, dueAt, tz, expiresAt, claimedAt, lease, scheduleId, quietHours, deliveryTrace);
    }
}
