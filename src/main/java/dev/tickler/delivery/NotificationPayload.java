package dev.tickler.delivery;

import java.time.Instant;
import java.util.Map;

/** What the notifier receives (SPEC §5). */
record NotificationPayload(long reminderId, String userId, String channel, String template,
        Map<String, Object> data, Instant fireAt, String tz) {

    static NotificationPayload of(ClaimedReminder claim) {
        return new NotificationPayload(claim.id(), claim.userId(), claim.channel(), claim.template(), claim.data(),
                claim.fireAt(), claim.tz());
    }
}
