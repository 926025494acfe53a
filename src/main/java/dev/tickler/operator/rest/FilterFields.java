package dev.tickler.operator.rest;

import java.util.List;
import java.util.Set;

import dev.tickler.db.WireNamed;
import dev.tickler.ledger.Channel;
import dev.tickler.ledger.ReminderState;
import dev.tickler.operator.FireWindow;
import dev.tickler.operator.ReminderFilter;
import dev.tickler.problem.FieldError;
import dev.tickler.reminder.rest.StateParameter;
import dev.tickler.security.Tenants;
import dev.tickler.validation.ReminderNames;
import dev.tickler.validation.TextRules;

/**
 * The filter of the operator calls (docs/contract.md#operator-api) as sent, in a query or a body, under the rules of
 * registration: a value that no reminder could hold is an error, not a filter that matches nothing. states are as the
 * product list takes them ({@link StateParameter}).
 */
record FilterFields(List<String> states, String channel, String template, String userId, String errorContains,
        String fireFrom, String fireTo, String tenant, String key, String keyPrefix, String tag) {

    /** The filter these fields name; each field that names none adds its error and is left out. */
    ReminderFilter toFilter(List<FieldError> errors) {
        Set<ReminderState> stateFilter = StateParameter.states(states, errors);
        Channel channelFilter = channel == null ? null : WireNamed.find(Channel.class, channel).orElse(null);
        if (channel != null && channelFilter == null) {
            errors.add(new FieldError("channel", "must be email, sms or push"));
        }
        if (template != null && !ReminderNames.isTemplate(template)) {
            errors.add(new FieldError("template", ReminderNames.TEMPLATE_RULE));
        }
        if (userId != null && (userId.isEmpty() || userId.length() > 128)) {
            errors.add(new FieldError("user_id", "must be 1 to 128 characters"));
        } else if (userId != null && !TextRules.isStorable(userId)) {
            errors.add(new FieldError("user_id", TextRules.NOT_STORABLE));
        }
        if (errorContains != null && errorContains.isEmpty()) {
            errors.add(new FieldError("error_contains", "must not be empty"));
        } else if (errorContains != null && !TextRules.isStorable(errorContains)) {
            errors.add(new FieldError("error_contains", TextRules.NOT_STORABLE));
        }
        if (tenant != null && !Tenants.NAME.matcher(tenant).matches()) {
            errors.add(new FieldError("tenant", "must be a tenant's name: 1 to 64 of A-Z, a-z, 0-9, '_', '.' and '-',"
                    + " not starting with '_', '.' or '-'"));
        }
        if (key != null && !ReminderNames.isKey(key)) {
            errors.add(new FieldError("key", ReminderNames.KEY_RULE));
        }
        if (keyPrefix != null && !ReminderNames.isKey(keyPrefix)) {
            errors.add(new FieldError("key_prefix", ReminderNames.KEY_RULE));
        }
        if (tag != null && !ReminderNames.isTag(tag)) {
            errors.add(new FieldError("tag", ReminderNames.TAG_RULE));
        }
        FireWindow window = FireWindow.of(fireFrom, fireTo, errors);
        return new ReminderFilter(stateFilter, channelFilter, template, userId, errorContains, window.from(),
                window.to(), tenant, key, keyPrefix, tag);
    }
}
