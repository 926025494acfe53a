package dev.tickler.reminder.rest;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import dev.tickler.ledger.UserReminderFilter;
import dev.tickler.validation.ReminderKey;
import dev.tickler.validation.ReminderTag;
import dev.tickler.validation.TemplateName;
import dev.tickler.validation.UserId;
import dev.tickler.web.JsonBody;

/**
 * The body of POST /v1/reminders/cancel (docs/contract.md#keyed-reminders-and-cancel-by-filter): a user's reminders,
 * narrowed by those of template, tag and key_prefix that are given; a value given empty is refused, not ignored.
 */
@Schema(examples = """
        {"user_id": "u_4412", "template": "trial_ending", "key_prefix": "trial-ending:"}""")
public record CancelRemindersRequest(
        @UserId
        String userId,

        @TemplateName.IfGiven
        String template,

        @ReminderTag
        String tag,

        /** Matched as given: '_' and '.' are plain characters. */
        @ReminderKey
        String keyPrefix) implements JsonBody {

    UserReminderFilter toFilter() {
        return new UserReminderFilter(userId, template, tag, keyPrefix);
    }
}
