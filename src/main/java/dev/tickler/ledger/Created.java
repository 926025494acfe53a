package dev.tickler.ledger;

import java.util.Optional;

import io.vertx.mutiny.sqlclient.Row;

import dev.tickler.quiethours.QuietHours;
import dev.tickler.quiethours.QuietHoursRepository;

/**
 * A reminder a registration created, with its user's quiet hours as the inserting statement read them: empty when the
 * user has none, or the reminder is urgent and ignores them. Its hand-off decides on these instead of reading them
 * again, one round trip less for every registration.
 */
public record Created(ReminderRow reminder, Optional<QuietHours> quietHours) {

    static Created from(Row row) {
        return new Created(ReminderRow.from(row), QuietHoursRepository.ofReminder(row));
    }
}
