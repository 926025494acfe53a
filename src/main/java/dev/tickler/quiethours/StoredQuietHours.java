package dev.tickler.quiethours;

import java.time.Instant;

/** A user's quiet hours, within a tenant, as the table holds them. */
public record StoredQuietHours(String tenant, String userId, QuietHours quietHours, Instant updatedAt) {
}
