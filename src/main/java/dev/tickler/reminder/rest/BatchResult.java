package dev.tickler.reminder.rest;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import com.fasterxml.jackson.annotation.JsonInclude;

import dev.tickler.problem.Problem;

/**
 * One item's answer in a batch: 201 or 200 with the reminder, or 400 or 409 with the problem
 * (docs/contract.md#batch-registration).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record BatchResult(
        @Schema(required = true, description = "As the single POST would answer it: 201 registered or 200 registered"
                + " before, with the reminder; 400 or 409 refused, with the problem")
        int status,
        ReminderView reminder,
        Problem problem) {
}
