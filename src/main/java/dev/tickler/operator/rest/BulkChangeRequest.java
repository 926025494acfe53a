package dev.tickler.operator.rest;

import java.util.List;

/**
 * The body of POST /v1/admin/redrive and /v1/admin/cancel: the filter of GET /v1/admin/reminders and whether to only
 * count. dry_run is required, so that no change is made by a body that meant to ask. state names one state or several,
 * comma-separated.
 */
public record BulkChangeRequest(String state, String channel, String template, String userId, String errorContains,
        String fireFrom, String fireTo, String tenant, String key, String keyPrefix, String tag, Boolean dryRun) {

    FilterFields filter() {
        return new FilterFields(state == null ? List.of() : List.of(state), channel, template, userId, errorContains,
                fireFrom, fireTo, tenant, key, keyPrefix, tag);
    }
}
