package dev.tickler.operator.rest;

import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Schema;


/**
 * The body of POST /v1/admin/redrive and /v1/admin/cancel: the filter of GET /v1/admin/reminders and whether to only
 * count. dry_run is required, so that no change is made by a body that meant to ask.
 */
@Schema(examples = """
        {"state": "failed", "template": "trial_ending", "error_contains": "timeout", "dry_run": true}""")
public record BulkChangeRequest(@Schema(ref = "ReminderState") String state,
        @Schema(ref = "Channel") String channel, String template, String userId, String errorContains,
        @Schema(type = SchemaType.STRING, format = "date-time") String fireFrom,
        @Schema(type = SchemaType.STRING, format = "date-time") String fireTo, String tenant,
        String key, String keyPrefix, String tag,
        @Schema(required = true, description = "true only counts; false changes") Boolean dryRun) {

    FilterFields filter() {
        return new FilterFields(state, channel, template, userId, errorContains, fireFrom, fireTo, tenant, key,
                keyPrefix, tag);
    }
}
