package dev.tickler.operator.rest;

/**
 * The body of POST /v1/admin/redrive and /v1/admin/cancel: the filter of GET /v1/admin/reminders and whether to only
 * count. dry_run is required, so that no change is made by a body that meant to ask.
 */
public record BulkChangeRequest(String state, String channel, String template, String userId, String errorContains,
        String fireFrom, String fireTo, String tenant, Boolean dryRun) {

    FilterFields filter() {
        return new FilterFields(state, channel, template, userId, errorContains, fireFrom, fireTo, tenant);
    }
}
