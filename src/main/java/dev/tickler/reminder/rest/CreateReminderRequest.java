package dev.tickler.reminder.rest;

import java.time.ZoneId;
import java.util.Map;

import dev.tickler.ledger.Channel;
import dev.tickler.ledger.NewReminder;
import dev.tickler.time.ReminderTiming;
import dev.tickler.db.WireNamed;
import dev.tickler.validation.ChannelName;
import dev.tickler.validation.StorableJson;
import dev.tickler.validation.TemplateName;
import dev.tickler.validation.UserId;

/** The body of POST /v1/reminders (docs/contract.md#registration-api). */
@ValidTiming(scheduleRequired = true)
public record CreateReminderRequest(
        @UserId
        String userId,

        @ChannelName
        String channel,

        @TemplateName
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
