package dev.tickler.console;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;

import com.fasterxml.jackson.databind.JsonNode;

import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;

import dev.tickler.infrai.InfraiClient;
import dev.tickler.infrai.InfraiException;
import dev.tickler.observability.ReminderStatistics;

/**
 * Each queue's own figures beside the table's (docs/contract.md#operator-console, the queues page), as the admin queues
 * call answers them.
 */
@ApplicationScoped
public class QueueFigures {

    /**
     * {@code delayedGap}: handed-off reminders not yet due minus the queues' delayed messages; it grows when messages
     * go missing. Null when a queue could not be read. {@code account}: Infrai's usage and credit, or why it could not
     * be read.
     */
    public record Queues(List<QueueStats> queues, long handedOffAhead, Long delayedGap, Account account) {
    }

    /** The Infrai account's usage and credit as Infrai reports them, or why they could not be read. */
    public record Account(List<Field> fields, String error) {
    }

    /** One queue's stats as Infrai reports them, or why they could not be read. */
    public record QueueStats(String queue, Long delayedCount, List<Field> fields, String error) {
    }

    public record Field(String name, String value) {
    }

    private final InfraiClient infrai;
    private final ReminderStatistics statistics;

    public QueueFigures(InfraiClient infrai, ReminderStatistics statistics) {
        this.infrai = infrai;
        this.statistics = statistics;
    }

    public Uni<Queues> queues(Instant now) {
        Uni<List<QueueStats>> stats = Multi.createFrom().iterable(infrai.queues())
                .onItem().transformToUniAndConcatenate(this::stats)
                .collect().asList();
        Uni<Account> account = infrai.usage().map(usage -> new Account(fieldsOf(usage), null))
                .onFailure().recoverWithItem(failure -> new Account(List.of(), failure.getMessage()));
        return Uni.combine().all().unis(stats, statistics.handedOffAhead(now), account).asTuple().map(all -> {
            List<QueueStats> queues = all.getItem1();
            long ahead = all.getItem2();
            boolean allRead = queues.stream().allMatch(queue -> queue.delayedCount() != null);
            Long gap = allRead ? ahead - queues.stream().mapToLong(QueueStats::delayedCount).sum() : null;
            return new Queues(queues, ahead, gap, all.getItem3());
        });
    }

    private static List<Field> fieldsOf(JsonNode object) {
        List<Field> fields = new ArrayList<>();
        object.fields().forEachRemaining(field -> fields.add(new Field(field.getKey(),
                field.getValue().isValueNode() ? field.getValue().asText() : field.getValue().toString())));
        return fields;
    }

    /** A queue that cannot be read is shown with its error; the others still are. */
    private Uni<QueueStats> stats(String queue) {
        return infrai.stats(queue)
                .map(stats -> new QueueStats(queue, stats.delayedCount(), fieldsOf(stats.raw()), null))
                .onFailure(InfraiException.class).recoverWithItem(failure ->
                        new QueueStats(queue, null, List.of(), failure.getMessage()));
    }
}
