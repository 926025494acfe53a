package dev.tickler.schedule.rest;

import java.util.Map;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import dev.tickler.ledger.Channel;
import dev.tickler.time.ReminderTiming;
import dev.tickler.db.WireNamed;
import dev.tickler.schedule.CatchUp;
import dev.tickler.schedule.NewSchedule;
import dev.tickler.schedule.ScheduleDefinition;
import dev.tickler.schedule.recurrence.DstPolicy;
import dev.tickler.schedule.recurrence.RecurrenceRule;
import dev.tickler.validation.ChannelName;
import dev.tickler.validation.StorableJson;
import dev.tickler.validation.TemplateName;
import dev.tickler.validation.UserId;
import dev.tickler.web.JsonBody;

/** The body of POST /v1/schedules: user_id, channel, template, data and expires_after as for a reminder. */
@ValidSchedule(required = true)
@Schema(examples = """
        {"user_id": "u_4412", "channel": "email", "template": "weekly_digest", "tz": "Europe/Berlin",
         "start": "2030-12-02T09:00", "rrule": "FREQ=WEEKLY;BYDAY=MO,WE,FR",
         "dst": {"gap": "shift", "overlap": "first"}, "catch_up": "latest", "data": {"plan": "pro"}}""")
public record CreateScheduleRequest(
        @UserId
        String userId,

        @ChannelName
        @Schema(ref = "Channel", required = true)
        String channel,

        @TemplateName
        String template,

        @StorableJson(bytes = MAX_DATA_BYTES)
        Map<String, Object> data,

        @Schema(description = ScheduleFields.EXPIRES_AFTER)
        String expiresAfter,
        @Schema(description = ScheduleFields.TZ)
        String tz,
        @Schema(description = ScheduleFields.START)
        String start,
        @Schema(description = ScheduleFields.RRULE)
        String rrule,
        DstFields dst,
        @Schema(enumeration = {"all", "latest", "none"}, description = ScheduleFields.CATCH_UP)
        String catchUp) implements ScheduleFields, JsonBody {

    /** As for a reminder: data is at most 16 KiB serialized. */
    static final int MAX_DATA_BYTES = 16 * 1024;

    NewSchedule toNewSchedule() {
        DstPolicy policy = new DstPolicy(
                dst == null || dst.gap() == null ? DstPolicy.DEFAULT.gap() : dst.gapChoice(),
                dst == null || dst.overlap() == null ? DstPolicy.DEFAULT.overlap() : dst.overlapChoice());
        return new NewSchedule(userId, WireNamed.fromWireName(Channel.class, channel), template,
                data == null ? Map.of() : data,
                expiresAfter == null ? null : ReminderTiming.expiresAfter(expiresAfter),
                new ScheduleDefinition(ScheduleFields.parseStart(start), tz, RecurrenceRule.parse(rrule), policy),
                catchUp == null ? CatchUp.LATEST : WireNamed.fromWireName(CatchUp.class, catchUp));
    }
}
