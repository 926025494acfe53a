package dev.tickler.operator.rest;

import java.util.ArrayList;
import java.util.List;

import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

import dev.tickler.problem.FieldError;
import dev.tickler.web.JsonBody;

/**
 * The body of POST /v1/admin/redrive and /v1/admin/cancel: the filter of GET /v1/admin/reminders and whether to only
 * count. dry_run is required, so that no change is made by a body that meant to ask. state names one state or several,
 * comma-separated.
 */
@Schema(examples = """
        {"state": "failed", "template": "trial_ending", "error_contains": "timeout", "dry_run": true}""")
public record BulkChangeRequest(
        @Schema(description = "One state, or several comma-separated (pending,failed)") String state,
        @Schema(ref = "Channel") String channel, String template, String userId, String errorContains,
        @Schema(type = SchemaType.STRING, format = "date-time") String fireFrom,
        @Schema(type = SchemaType.STRING, format = "date-time") String fireTo, String tenant,
        String key, String keyPrefix, String tag,
        @Schema(required = true, description = "true only counts; false changes") Boolean dryRun)
        implements JsonBody {

    static final FieldError DRY_RUN_MISSING =
            new FieldError("dry_run", "is required: true to count only, false to change");

    FilterFields filter() {
        return new FilterFields(state == null ? List.of() : List.of(state), channel, template, userId, errorContains,
                fireFrom, fireTo, tenant, key, keyPrefix, tag);
    }

    /** The filter's errors and a missing dry_run; whether the filter suits the operation is the call's to say. */
    @Override
    public List<FieldError> problems() {
        List<FieldError> problems = new ArrayList<>();
        filter().toFilter(problems);
        if (dryRun == null) {
            problems.add(DRY_RUN_MISSING);
        }
        return problems;
    }
}
