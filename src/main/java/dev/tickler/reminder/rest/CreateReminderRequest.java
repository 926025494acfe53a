package dev.tickler.reminder.rest;

import java.time.ZoneId;
import java.util.List;
import java.util.Map;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import dev.tickler.ledger.Channel;
import dev.tickler.ledger.NewReminder;
import dev.tickler.time.ReminderTiming;
import dev.tickler.db.WireNamed;
import dev.tickler.validation.ChannelName;
import dev.tickler.validation.ReminderKey;
import dev.tickler.validation.ReminderTags;
import dev.tickler.validation.StorableJson;
import dev.tickler.validation.TemplateName;
import dev.tickler.validation.UserId;
import dev.tickler.web.JsonBody;

/**
 * The body of POST /v1/reminders (docs/contract.md#registration-api) and of PUT /v1/reminders/by-key/{key}
 * (docs/contract.md#keyed-reminders-and-cancel-by-filter), where key is the path's or left out.
 */
@ValidTiming(scheduleRequired = true)
@Schema(examples = CreateReminderRequest.EXAMPLE)
public record CreateReminderRequest(
        @UserId
        String userId,

        @ChannelName
        @Schema(ref = "Channel", required = true)
        String channel,

        @TemplateName
        String template,

        @Schema(format = "date-time", description = FIRE_AT)
        String fireAt,
        @Schema(description = LOCAL_TIME)
        String localTime,
        @Schema(description = TZ)
        String tz,

        @StorableJson(bytes = MAX_DATA_BYTES)
        Map<String, Object> data,

        @Schema(description = EXPIRES_AFTER)
        String expiresAfter,

        /** Ignores the user's quiet hours; false when left out. */
        Boolean urgent,

        /** The caller's own name for the reminder; none when left out. */
        @ReminderKey
        String key,

        /** Labels to list and cancel by; repeats count once. */
        @ReminderTags
        List<String> tags) implements TimingFields, JsonBody {

    static final String EXAMPLE = """
            {"user_id": "u_4412", "channel": "email", "template": "trial_ending", "fire_at": "2030-12-01T09:00:00Z",
             "data": {"plan": "pro"}, "key": "trial-ending:u_4412", "tags": ["trial"]}""";
    static final String FIRE_AT = "An instant with an offset; give this or local_time";
    static final String LOCAL_TIME = "A wall-clock time such as 2030-12-01T09:00, read in tz; give this or fire_at";
    static final String TZ = "An IANA time zone id such as Europe/Berlin; UTC when left out";
    static final String EXPIRES_AFTER = "An ISO-8601 duration such as PT2H: not delivered by fire_at plus this, the"
            + " reminder expires instead of being sent late";

    /** data is at most 16 KiB serialized. */
    static final int MAX_DATA_BYTES = 16 * 1024;

    NewReminder toNewReminder() {
        String zone = tz == null ? ReminderTiming.DEFAULT_ZONE.getId() : tz;
        return new NewReminder(userId, WireNamed.fromWireName(Channel.class, channel), template,
                ReminderTiming.fireAt(fireAt, localTime, ZoneId.of(zone)), zone,
                data == null ? Map.of() : data,
                expiresAfter == null ? null : ReminderTiming.expiresAfter(expiresAfter), Boolean.TRUE.equals(urgent),
                key, tags == null ? List.of() : tags.stream().distinct().toList());
    }
}
