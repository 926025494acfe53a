package dev.tickler.quiethours;

import java.time.Instant;

/** A user's quiet hours as the table holds them. */
public record StoredQuietHours(String userId, QuietHours quietHours, Instant updatedAt) {
}
