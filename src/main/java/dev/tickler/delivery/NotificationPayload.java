package dev.tickler.delivery;

import java.time.Instant;
import java.util.Map;

/** What the notifier receives (docs/contract.md#delivery-to-the-notifier). */
record NotificationPayload(long reminderId, String userId, String channel, String template,
        Map<String, Object> data, Instant fireAt, String tz) {

    static NotificationPayload of(ClaimedReminder claim) {
        return new NotificationPayload(claim.id(), claim.userId(), claim.channel(), claim.template(), claim.data(),
                claim.fireAt(), claim.tz());
    }
}
