package dev.tickler.reminder;

import java.time.Duration;

import java.util.Map;

/**
 * A validated PATCH; null means "keep". fireAt and localTime are still text because a local time is read in the
 * reminder's stored zone when the change names none.
 */
public record ReminderChange(String fireAt, String localTime, String tz, Map<String, Object> data, Duration expiresAfter) {

    public boolean reschedules() {
        return fireAt != null || localTime != null;
    }
}
