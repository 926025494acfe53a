package dev.tickler.quiethours.rest;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import dev.tickler.quiethours.StoredQuietHours;

/** A user's quiet hours as every answer shows them, with the defaults filled in. */
public record QuietHoursView(String tenant, String userId, String tz, List<Map<String, Object>> windows, String policy,
        Instant updatedAt) {

    public static QuietHoursView of(StoredQuietHours stored) {
        return new QuietHoursView(stored.tenant(), stored.userId(), stored.quietHours().zone().getId(),
                stored.quietHours().windowsAsJson(), stored.quietHours().policy().wireName(), stored.updatedAt());
    }
}
