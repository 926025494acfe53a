package dev.tickler.operator;

import static dev.tickler.db.SqlTimestamps.utc;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import io.vertx.mutiny.sqlclient.Tuple;

import dev.tickler.db.LikePatterns;
import dev.tickler.ledger.NameConditions;
import dev.tickler.ledger.ReminderState;

/**
 * A {@link ReminderFilter} as SQL conditions on {@code reminders} with numbered parameters, so search, count and the
 * bulk changes select exactly the same rows. States are written as literals (enum names, never input) so that the
 * planner can match the partial indexes on state.
 */
final class FilterSql {

    private final List<String> conditions = new ArrayList<>();
    private final Tuple parameters = Tuple.tuple();

    private FilterSql() {
    }

    /** The filter's conditions, with the states narrowed to {@code states} when they are given. */
    static FilterSql of(ReminderFilter filter, Set<ReminderState> states) {
        FilterSql sql = new FilterSql();
        Set<ReminderState> inStates = states != null ? states : filter.states();
        if (!inStates.isEmpty()) {
            sql.where(inStates.size() == 1 ? "state = " + literal(inStates.iterator().next())
                    : "state IN (" + inStates.stream().map(FilterSql::literal).collect(Collectors.joining(", "))
                            + ")");
        }
        if (filter.tenant() != null) {
            sql.where("tenant = " + sql.parameter(filter.tenant()));
        }
        if (filter.channel() != null) {
            sql.where("channel = " + sql.parameter(filter.channel().wireName()));
        }
        if (filter.template() != null) {
            sql.where("template = " + sql.parameter(filter.template()));
        }
        if (filter.userId() != null) {
            sql.where("user_id = " + sql.parameter(filter.userId()));
        }
        if (filter.errorContains() != null) {
            sql.where("last_error ILIKE " + sql.parameter(LikePatterns.containing(filter.errorContains()))
                    + LikePatterns.ESCAPE);
        }
        if (filter.key() != null) {
            sql.where("key = " + sql.parameter(filter.key()));
        }
        if (filter.keyPrefix() != null) {
            sql.where(NameConditions.keyStartsWith(sql.parameter(NameConditions.keyPrefixPattern(filter.keyPrefix()))));
        }
        if (filter.tag() != null) {
            sql.where(NameConditions.hasTag(sql.parameter(filter.tag())));
        }
        if (filter.fireFrom() != null) {
            sql.where("fire_at >= " + sql.parameter(utc(filter.fireFrom())));
        }
        if (filter.fireTo() != null) {
            sql.where("fire_at < " + sql.parameter(utc(filter.fireTo())));
        }
        return sql;
    }

    /** Adds a condition; its parameters come from {@link #parameter(Object)}. */
    FilterSql where(String condition) {
        conditions.add(condition);
        return this;
    }

    /** Binds the value and answers its placeholder. */
    String parameter(Object value) {
        parameters.addValue(value);
        return "$" + parameters.size();
    }

    /** " WHERE …" with every condition, or nothing when there is none. */
    String whereClause() {
        return conditions.isEmpty() ? "" : " WHERE " + String.join(" AND ", conditions);
    }

    Tuple parameters() {
        return parameters;
    }

    private static String literal(ReminderState state) {
        return "'" + state.wireName() + "'";
    }
}
