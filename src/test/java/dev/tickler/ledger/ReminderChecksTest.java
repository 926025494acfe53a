package dev.tickler.ledger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import io.quarkus.test.junit.QuarkusTest;

import dev.tickler.testing.Api;
import dev.tickler.testing.Database;

/**
 * The table itself refuses a state or channel the service does not know, whoever writes it (an operator's hand-written
 * SQL too), in the form V17 stores its checks in.
 */
@QuarkusTest
class ReminderChecksTest {

    @Inject
    Database database;

    @ParameterizedTest
    @EnumSource(ReminderState.class)
    void everyStateTheServiceKnowsIsAccepted(ReminderState state) {
        long id = database.insertReminder(Api.newUser(), state.wireName(), inAnHour(), "");

        assertThat(database.count("SELECT count(*) FROM reminders WHERE id = $1", id)).isEqualTo(1);
    }

    @Test
    void anUnknownStateOrChannelIsRefusedAndNothingIsWritten() {
        String user = Api.newUser();
        long id = database.insertReminder(user, "pending", inAnHour(), "");

        assertThatThrownBy(() -> database.insertReminder(user, "sending", inAnHour().plusSeconds(1), ""))
                .hasMessageContaining("reminders_state_check");
        assertThatThrownBy(() -> database.execute("UPDATE reminders SET state = 'Sent' WHERE id = $1", id))
                .hasMessageContaining("reminders_state_check");
        assertThatThrownBy(() -> database.execute("UPDATE reminders SET channel = 'fax' WHERE id = $1", id))
                .hasMessageContaining("reminders_channel_check");
        assertThat(database.count("SELECT count(*) FROM reminders WHERE user_id = $1 AND state = 'pending'"
                + " AND channel = 'email'", user)).isEqualTo(1);
    }

    @Test
    void bothChecksAreValidatedForTheRowsWrittenBeforeThem() {
        assertThat(database.count("SELECT count(*) FROM pg_constraint WHERE conrelid = 'reminders'::regclass"
                + " AND conname IN ('reminders_state_check', 'reminders_channel_check') AND convalidated")).isEqualTo(2);
    }

    private static Instant inAnHour() {
        return Instant.now().plus(Duration.ofHours(1));
    }
}
