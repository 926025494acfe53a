package dev.tickler.reminder.rest;

import java.util.Map;

import jakarta.validation.constraints.AssertTrue;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import com.fasterxml.jackson.annotation.JsonIgnore;

import dev.tickler.reminder.ReminderChange;
import dev.tickler.time.ReminderTiming;
import dev.tickler.validation.StorableJson;
import dev.tickler.web.FixedFields;
import dev.tickler.web.JsonBody;

/**
 * The body of PATCH /v1/reminders/{id}: any of the fields; a local_time without tz is read in the stored zone. The
 * other fields of a registration are the reminder's for good.
 */
@ValidTiming(scheduleRequired = false)
@FixedFields(of = CreateReminderRequest.class,
        advice = "cancel this reminder and register a new one (a keyed one: PUT its key with the whole body)")
@Schema(examples = """
        {"fire_at": "2030-12-02T09:00:00Z", "data": {"plan": "team"}}""")
public record UpdateReminderRequest(
        @Schema(format = "date-time", description = CreateReminderRequest.FIRE_AT)
        String fireAt,
        @Schema(description = CreateReminderRequest.LOCAL_TIME)
        String localTime,
        @Schema(description = "An IANA time zone id such as Europe/Berlin; the stored one when left out")
        String tz,
        @StorableJson(bytes = CreateReminderRequest.MAX_DATA_BYTES)
        Map<String, Object> data,
        @Schema(description = CreateReminderRequest.EXPIRES_AFTER)
        String expiresAfter) implements TimingFields, JsonBody {

    @JsonIgnore
    @AssertTrue(message = "give at least one of fire_at, local_time, tz, data or expires_after")
    boolean isBody() {
        return fireAt != null || localTime != null || tz != null || data != null || expiresAfter != null;
    }

    ReminderChange toChange() {
        return new ReminderChange(fireAt, localTime, tz, data,
                expiresAfter == null ? null : ReminderTiming.expiresAfter(expiresAfter));
    }
}
