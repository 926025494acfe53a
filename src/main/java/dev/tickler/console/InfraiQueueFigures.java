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

/** Infrai's stats of every queue Tickler publishes to, and the gap the metrics also expose. */
@ApplicationScoped
public class InfraiQueueFigures implements QueueFigures {

    private final InfraiClient infrai;
    private final ReminderStatistics statistics;

    public InfraiQueueFigures(InfraiClient infrai, ReminderStatistics statistics) {
        this.infrai = infrai;
        this.statistics = statistics;
    }

    @Override
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
