package dev.tickler.operator.rest;

import java.util.Arrays;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import dev.tickler.db.WireNamed;
import dev.tickler.ledger.Channel;
import dev.tickler.ledger.ReminderState;
import dev.tickler.operator.FireWindow;
import dev.tickler.operator.ReminderFilter;
import dev.tickler.problem.FieldError;
import dev.tickler.security.Tenants;
import dev.tickler.validation.TextRules;

/**
 * The filter of the operator calls (docs/contract.md#operator-api) as sent, in a query or a body, under the rules of
 * registration: a value that no reminder could hold is an error, not a filter that matches nothing.
 */
record FilterFields(String state, String channel, String template, String userId, String errorContains,
        String fireFrom, String fireTo, String tenant) {

    private static final Pattern TEMPLATE = Pattern.compile("[A-Za-z0-9_.-]{1,128}");
    private static final String STATES = Arrays.stream(ReminderState.values()).map(ReminderState::wireName)
            .collect(Collectors.joining(", "));

    /** The filter these fields name; each field that names none adds its error and is left out. */
    ReminderFilter toFilter(List<FieldError> errors) {
        ReminderState stateFilter = state == null ? null : WireNamed.find(ReminderState.class, state).orElse(null);
        if (state != null && stateFilter == null) {
            errors.add(new FieldError("state", "must be one of " + STATES));
        }
        Channel channelFilter = channel == null ? null : WireNamed.find(Channel.class, channel).orElse(null);
        if (channel != null && channelFilter == null) {
            errors.add(new FieldError("channel", "must be email, sms or push"));
        }
        if (template != null && !TEMPLATE.matcher(template).matches()) {
            errors.add(new FieldError("template", "must be 1 to 128 of A-Z, a-z, 0-9, '_', '.' and '-'"));
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
        FireWindow window = FireWindow.of(fireFrom, fireTo, errors);
        return new ReminderFilter(stateFilter, channelFilter, template, userId, errorContains, window.from(),
                window.to(), tenant);
    }
}
