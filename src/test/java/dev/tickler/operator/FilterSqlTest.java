package dev.tickler.operator;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.time.ZoneOffset;
import java.util.EnumSet;
import java.util.Set;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;

import dev.tickler.ledger.Channel;
import dev.tickler.ledger.ReminderState;

/** The filter as SQL, without the application: every field a condition, input only ever a parameter. */
class FilterSqlTest {

    @Test
    void everyFieldIsAConditionWithItsValueBound() {
        Instant from = Instant.parse("2026-12-01T00:00:00Z");
        Instant to = Instant.parse("2026-12-02T00:00:00Z");
        ReminderFilter filter = new ReminderFilter(Set.of(ReminderState.FAILED), Channel.SMS, "trial_ending", "u_1",
                "50%_off\\", from, to, "checkout", "cart:42", "cart_", "vip");

        FilterSql sql = FilterSql.of(filter, null);

        assertThat(sql.whereClause()).isEqualTo(" WHERE state = 'failed' AND tenant = $1 AND channel = $2"
                + " AND template = $3 AND user_id = $4 AND last_error ILIKE $5 ESCAPE '\\' AND key = $6"
                + " AND key LIKE $7::text ESCAPE '\\' AND tags @> ARRAY[$8::varchar] AND fire_at >= $9 AND fire_at < $10");
        assertThat(IntStream.range(0, sql.parameters().size()).mapToObj(sql.parameters()::getValue).toList())
                .containsExactly("checkout", "sms", "trial_ending", "u_1", "%50\\%\\_off\\\\%", "cart:42", "cart\\_%",
                        "vip", from.atOffset(ZoneOffset.UTC), to.atOffset(ZoneOffset.UTC));
    }

    @Test
    void operationStatesStandInForTheStateFilter() {
        assertThat(FilterSql.of(ReminderFilter.ALL, EnumSet.of(ReminderState.PENDING, ReminderState.HANDED_OFF,
                ReminderState.FAILED)).whereClause()).isEqualTo(" WHERE state IN ('pending', 'handed_off', 'failed')");
        assertThat(FilterSql.of(ReminderFilter.ALL, EnumSet.of(ReminderState.FAILED)).whereClause())
                .isEqualTo(" WHERE state = 'failed'");
    }

    @Test
    void severalStatesAreOneCondition() {
        ReminderFilter filter = new ReminderFilter(EnumSet.of(ReminderState.FAILED, ReminderState.PENDING), null, null,
                null, null, null, null, null, null, null, null);

        assertThat(FilterSql.of(filter, null).whereClause()).isEqualTo(" WHERE state IN ('pending', 'failed')");
    }

    @Test
    void noFilterIsNoCondition() {
        assertThat(FilterSql.of(ReminderFilter.ALL, null).whereClause()).isEmpty();
    }
}
