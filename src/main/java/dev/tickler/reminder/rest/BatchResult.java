package dev.tickler.reminder.rest;

import com.fasterxml.jackson.annotation.JsonInclude;

import dev.tickler.problem.Problem;

/**
 * One item's answer in a batch: 201 or 200 with the reminder, or 400 or 409 with the problem
 * (docs/contract.md#batch-registration).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record BatchResult(int status, ReminderView reminder, Problem problem) {
}
