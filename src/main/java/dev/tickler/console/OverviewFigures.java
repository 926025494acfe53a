package dev.tickler.console;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import io.smallrye.mutiny.Uni;

import dev.tickler.ledger.ReminderState;

/**
 * The figures of the operator overview (docs/contract.md#operator-api), as the console's overview page shows them
 * ({@link ServiceOverviewFigures}).
 */
public interface OverviewFigures {

    Uni<Overview> overview(Instant now);

    record Overview(Map<ReminderState, Long> counts, Optional<Duration> oldestOverdue, DispatchLag dispatchLag,
            List<LatenessBucket> lateness, List<HourlyDue> forecast) {
    }

    /** Milliseconds from fire_at to sent_at over the last hour's sends; null where there were none. */
    record DispatchLag(Double p50, Double p95, Double p99) {
    }

    /** Sends of the last 24 hours at most {@code upTo} late (and later than the bucket before); null: the rest. */
    record LatenessBucket(Duration upTo, long count) {
    }

    /** Non-terminal reminders firing in this UTC hour. */
    record HourlyDue(Instant hour, long due) {
    }
}
