package dev.tickler.reminder.rest;

import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

import dev.tickler.db.WireNamed;
import dev.tickler.ledger.ReminderState;
import dev.tickler.problem.FieldError;

/**
 * The state filter of the reminder lists (docs/api.md, "Lists"): a state, several comma-separated
 * ({@code state=pending,failed}), the parameter repeated ({@code state=pending&state=failed}) or both; a reminder in
 * any of them matches. None given means every state.
 */
public final class StateParameter {

    private static final String STATES = Arrays.stream(ReminderState.values()).map(ReminderState::wireName)
            .collect(Collectors.joining(", "));

    private StateParameter() {
    }

    /** The states named; empty for none. A name that is no state (an empty one too) adds the error, once. */
    public static Set<ReminderState> states(List<String> values, List<FieldError> errors) {
        Set<ReminderState> states = EnumSet.noneOf(ReminderState.class);
        boolean unknown = false;
        for (String value : values) {
            for (String name : value.split(",", -1)) {
                Optional<ReminderState> state = WireNamed.find(ReminderState.class, name.strip());
                state.ifPresent(states::add);
                unknown |= state.isEmpty();
            }
        }
        if (unknown) {
            errors.add(new FieldError("state", "must be one of " + STATES));
        }
        return states;
    }
}
