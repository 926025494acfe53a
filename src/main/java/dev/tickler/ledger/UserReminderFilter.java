package dev.tickler.ledger;

/**
 * Which of one user's reminders a product service's cancel is about (docs/contract.md#keyed-reminders-and-cancel-by-filter):
 * userId is required; template, tag and keyPrefix are optional (null) and those given must all hold.
 */
public record UserReminderFilter(String userId, String template, String tag, String keyPrefix) {
}
