package dev.tickler.console;

import java.time.Instant;
import java.util.List;

import io.smallrye.mutiny.Uni;

/**
 * Each queue's own figures beside the table's (docs/contract.md#operator-console, the queues page), as the admin queues
 * call answers them.
 */
public interface QueueFigures {

    Uni<Queues> queues(Instant now);

    /**
     * {@code delayedGap}: handed-off reminders not yet due minus the queues' delayed messages; it grows when messages
     * go missing. Null when a queue could not be read. {@code account}: Infrai's usage and credit, or why it could not
     * be read.
     */
    record Queues(List<QueueStats> queues, long handedOffAhead, Long delayedGap, Account account) {
    }

    /** The Infrai account's usage and credit as Infrai reports them, or why they could not be read. */
    record Account(List<Field> fields, String error) {
    }

    /** One queue's stats as Infrai reports them, or why they could not be read. */
    record QueueStats(String queue, Long delayedCount, List<Field> fields, String error) {
    }

    record Field(String name, String value) {
    }
}
