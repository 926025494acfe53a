package dev.tickler.reminder.rest;

import java.time.ZoneId;
import java.util.Map;

import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;

import dev.tickler.reminder.Channel;
import dev.tickler.reminder.NewReminder;
import dev.tickler.reminder.ReminderTiming;
import dev.tickler.reminder.WireNamed;
import dev.tickler.validation.StorableJson;
import dev.tickler.validation.StorableText;

/** The body of POST /v1/reminders (docs/contract.md#registration-api). */
@ValidTiming(scheduleRequired = true)
public record CreateReminderRequest(
        @NotNull(message = "is required")
        @Size(min = 1, max = 128, message = "must be 1 to 128 characters")
        @StorableText
        String userId,

        @NotNull(message = "is required")
        @Pattern(regexp = "email|sms|push", message = "must be email, sms or push")
        String channel,

        @NotNull(message = "is required")
        @Size(min = 1, max = 128, message = "must be 1 to 128 characters")
        @Pattern(regexp = "[A-Za-z0-9_.-]*", message = "may only hold A-Z, a-z, 0-9, '_', '.' and '-'")
        String template,

        String fireAt,
        String localTime,
        String tz,

        @StorableJson(bytes = MAX_DATA_BYTES)
        Map<String, Object> data,

        String expiresAfter,

        /** Ignores the user's quiet hours; false when left out. */
        Boolean urgent) implements TimingFields {

    /** data is at most 16 KiB serialized. */
    static final int MAX_DATA_BYTES = 16 * 1024;

    NewReminder toNewReminder() {
        String zone = tz == null ? ReminderTiming.DEFAULT_ZONE.getId() : tz;
        return new NewReminder(userId, WireNamed.fromWireName(Channel.class, channel), template,
                ReminderTiming.fireAt(fireAt, localTime, ZoneId.of(zone)), zone,
                data == null ? Map.of() : data,
                expiresAfter == null ? null : ReminderTiming.expiresAfter(expiresAfter), Boolean.TRUE.equals(urgent));
    }
}
