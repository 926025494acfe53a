package dev.tickler.ledger;

import java.time.Instant;
import java.util.Map;

import dev.tickler.quiethours.QuietHours;

/**
 * A reminder as a claim made it {@code delivering}: what its delivery needs, read by the claiming statement itself.
 * {@code dueAt} is the send time it had (its fire_at, or later when a deferral or a retry moved it); {@code quietHours}
 * are its user's, null when there are none or the reminder is urgent; {@code scheduleId} is null for a one-shot one.
 */
public record Claim(long id, String tenant, int version, int handoff, int attempts, String userId, String channel,
        String template, Map<String, Object> data, Instant fireAt, Instant dueAt, String tz, Instant expiresAt, Instant claimedAt,
        Instant leaseUntil, Long scheduleId, QuietHours quietHours) implements HeldClaim {
}
