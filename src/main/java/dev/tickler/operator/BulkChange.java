package dev.tickler.operator;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

import dev.tickler.problem.FieldError;
import dev.tickler.ledger.ReminderState;

/**
 * The two bulk operations of the operator API (docs/contract.md#operator-api) and what each applies to, with the same
 * rules as their single calls.
 */
public enum BulkChange {

    /** As POST /v1/reminders/{id}/redrive: failed reminders only. An empty filter means every failed reminder. */
    REDRIVE(EnumSet.of(ReminderState.FAILED), true),

    /**
     * As DELETE /v1/reminders/{id}: what that call changes; sent, expired and skipped ones are finished, a delivering
     * one has a send in flight, and a cancelled one has nothing left to change. An empty filter is refused.
     */
    CANCEL(EnumSet.of(ReminderState.PENDING, ReminderState.HANDED_OFF, ReminderState.FAILED), false);

    private final Set<ReminderState> applicableStates;
    private final boolean emptyFilterAllowed;

    BulkChange(Set<ReminderState> applicableStates, boolean emptyFilterAllowed) {
        this.applicableStates = applicableStates;
        this.emptyFilterAllowed = emptyFilterAllowed;
    }

    /** The states this operation changes, narrowed to the filter's states when it names some. */
    public Set<ReminderState> statesFor(ReminderFilter filter) {
        return filter.states().isEmpty() ? applicableStates : filter.states();
    }

    /** What makes this filter unusable for this operation; empty when it can run. */
    public List<FieldError> problemsWith(ReminderFilter filter) {
        List<FieldError> problems = new ArrayList<>();
        if (!applicableStates.containsAll(filter.states())) {
            problems.add(new FieldError("state", operation() + " applies to " + applicableStateNames()
                    + " reminders only"));
        }
        if (!emptyFilterAllowed && filter.isEmpty()) {
            problems.add(new FieldError("body", "give at least one of state, channel, template, user_id,"
                    + " error_contains, fire_from, fire_to, tenant, key, key_prefix or tag; a " + operation()
                    + " of every reminder at once is refused"));
        }
        return problems;
    }

    private String operation() {
        return name().toLowerCase(Locale.ROOT);
    }

    private String applicableStateNames() {
        List<String> names = applicableStates.stream().map(ReminderState::wireName).toList();
        return names.size() == 1 ? names.get(0)
                : String.join(", ", names.subList(0, names.size() - 1)) + " or " + names.get(names.size() - 1);
    }
}
