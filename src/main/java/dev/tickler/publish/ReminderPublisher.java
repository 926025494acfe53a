package dev.tickler.publish;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import jakarta.enterprise.context.ApplicationScoped;

import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;

import dev.tickler.config.TicklerConfig;
import dev.tickler.infrai.InfraiClient;

/**
 * The one place that puts a reminder on Infrai's queue (SPEC §1): the message with its ids, its publish key, the
 * channel's queue, and the delay until it is due, whole seconds rounded up so that it is never early. Hand-off at
 * creation, the sweep, retries, releases and redrives all publish through it.
 */
@ApplicationScoped
public class ReminderPublisher {

    /** The queue's delay ceiling (SPEC §7): 7 days. */
    public static final Duration QUEUE_CEILING = Duration.ofSeconds(InfraiClient.MAX_DELAY_SECONDS);

    private final InfraiClient infrai;
    private final Clock clock;
    private final int concurrency;

    public ReminderPublisher(InfraiClient infrai, Clock clock, TicklerConfig config) {
        this.infrai = infrai;
        this.clock = clock;
        this.concurrency = config.infrai().publishConcurrency();
    }

    /** Whole seconds until dueAt, rounded up so a reminder is never early; 0 when it is already due. */
    public static long delaySeconds(Instant dueAt, Instant now) {
        Duration until = Duration.between(now, dueAt);
        if (until.isNegative() || until.isZero()) {
            return 0;
        }
        return until.getSeconds() + (until.getNano() > 0 ? 1 : 0);
    }

    /** Whether the queue can hold a message until dueAt; a later one stays parked for the sweep. */
    public boolean withinCeiling(Instant dueAt) {
        return delaySeconds(dueAt, clock.instant()) <= InfraiClient.MAX_DELAY_SECONDS;
    }

    /** One publication's outcome among many: the message id, or null when the queue did not take it. */
    public record Published(Publication publication, String messageId, Throwable failure) {

        public boolean succeeded() {
            return messageId != null;
        }
    }

    /**
     * Publishes many, at most tickler.infrai.publish-concurrency at once; never fails: each outcome says whether its
     * publish was taken. Outcomes come in the order the publications were given.
     */
    public Uni<List<Published>> publishAll(List<Publication> publications) {
        if (publications.isEmpty()) {
            return Uni.createFrom().item(List.of());
        }
        return Multi.createFrom().range(0, publications.size())
                .onItem().transformToUni(index -> publish(publications.get(index))
                        .map(messageId -> Map.entry(index, new Published(publications.get(index), messageId, null)))
                        .onFailure().recoverWithItem(failure -> Map.entry(index,
                                new Published(publications.get(index), null, failure))))
                .merge(concurrency)
                .collect().asList()
                .map(outcomes -> {
                    Published[] inOrder = new Published[publications.size()];
                    outcomes.forEach(outcome -> inOrder[outcome.getKey()] = outcome.getValue());
                    return List.of(inOrder);
                });
    }

    /**
     * Publishes and answers the message id; a repeated publish key answers the first message's id. A due time beyond
     * the queue's ceiling is refused by the adapter, never rounded.
     */
    public Uni<String> publish(Publication publication) {
        return infrai.publish(infrai.queueFor(publication.channel()), publication.message(),
                delaySeconds(publication.dueAt(), clock.instant()), publication.publishKey());
    }
}
