package dev.tickler.ledger;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * A validated registration; expiresAfter may be null (never expires); an urgent one ignores quiet hours. key is the
 * caller's own name for it, null when it has none; tags are distinct, empty when there are none.
 */
public record NewReminder(String userId, Channel channel, String template, Instant fireAt, String tz,
        Map<String, Object> data, Duration expiresAfter, boolean urgent, String key, List<String> tags) {

    /** The same registration under the given key. */
    public NewReminder withKey(String key) {
        return new NewReminder(userId, channel, template, fireAt, tz, data, expiresAfter, urgent, key, tags);
    }
}
