package dev.tickler.quiethours.rest;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

import dev.tickler.quiethours.StoredQuietHours;

/** A user's quiet hours as every answer shows them, with the defaults filled in. */
public record QuietHoursView(String tenant, String userId, String tz,
        @Schema(type = SchemaType.ARRAY, implementation = QuietHoursRequest.Window.class)
        List<Map<String, Object>> windows,
        @Schema(enumeration = {"defer", "skip"}, description = QuietHoursRequest.POLICY) String policy,
        Instant updatedAt) {

    public static QuietHoursView of(StoredQuietHours stored) {
        return new QuietHoursView(stored.tenant(), stored.userId(), stored.quietHours().zone().getId(),
                stored.quietHours().windowsAsJson(), stored.quietHours().policy().wireName(), stored.updatedAt());
    }
}
