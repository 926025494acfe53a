package dev.tickler.schedule.rest;

import java.util.Map;

import jakarta.validation.constraints.AssertTrue;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import com.fasterxml.jackson.annotation.JsonIgnore;

import dev.tickler.time.ReminderTiming;
import dev.tickler.db.WireNamed;
import dev.tickler.schedule.CatchUp;
import dev.tickler.schedule.ScheduleChange;
import dev.tickler.schedule.recurrence.RecurrenceRule;
import dev.tickler.validation.StorableJson;
import dev.tickler.web.FixedFields;
import dev.tickler.web.JsonBody;

/**
 * The body of PATCH /v1/schedules/{id}: any of the rule, its start, zone and policies, data and expires_after. The
 * user, channel and template of a schedule do not change; a dst object replaces the parts it names.
 */
@ValidSchedule(required = false)
@FixedFields(of = CreateScheduleRequest.class, advice = "delete this schedule and create a new one")
@Schema(examples = """
        {"rrule": "FREQ=WEEKLY;BYDAY=TU,TH", "dst": {"gap": "skip"}}""")
public record UpdateScheduleRequest(
        @StorableJson(bytes = CreateScheduleRequest.MAX_DATA_BYTES)
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

    @JsonIgnore
    @AssertTrue(message = "give at least one of rrule, start, tz, dst, catch_up, data or expires_after")
    boolean isBody() {
        return data != null || expiresAfter != null || tz != null || start != null || rrule != null || dst != null
                || catchUp != null;
    }

    ScheduleChange toChange() {
        return new ScheduleChange(rrule == null ? null : RecurrenceRule.parse(rrule),
                start == null ? null : ScheduleFields.parseStart(start), tz,
                dst == null ? null : dst.gapChoice(), dst == null ? null : dst.overlapChoice(),
                catchUp == null ? null : WireNamed.fromWireName(CatchUp.class, catchUp), data,
                expiresAfter == null ? null : ReminderTiming.expiresAfter(expiresAfter));
    }
}
