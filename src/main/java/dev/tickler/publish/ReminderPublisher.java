package dev.tickler.publish;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import jakarta.enterprise.context.ApplicationScoped;

import io.opentelemetry.api.trace.Span;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;

import dev.tickler.config.TicklerConfig;
import dev.tickler.http.TransportFailure;
import dev.tickler.infrai.InfraiClient;
import dev.tickler.timeline.EventType;
import dev.tickler.timeline.Timeline;
import dev.tickler.timeline.TimelineEvent;
import dev.tickler.tracing.ReminderTracing;

/**
 * The one place that puts a reminder on Infrai's queue (docs/contract.md#two-horizons): the message with its ids, its
 * publish key, the channel's queue, and the delay until it is due, whole seconds rounded up so that it is never early.
 * Hand-off at creation, the sweep, retries, releases and redrives all publish through it.
 */
@ApplicationScoped
public class ReminderPublisher {

    /** The queue's delay ceiling (docs/contract.md#the-queue-api): 7 days. */
    public static final Duration QUEUE_CEILING = Duration.ofSeconds(InfraiClient.MAX_DELAY_SECONDS);

    private final InfraiClient infrai;
    private final Timeline timeline;
    private final Clock clock;
    private final ReminderTracing tracing;
    private final int concurrency;

    public ReminderPublisher(InfraiClient infrai, Timeline timeline, Clock clock, ReminderTracing tracing,
            TicklerConfig config) {
        this.infrai = infrai;
        this.timeline = timeline;
        this.clock = clock;
        this.tracing = tracing;
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

    /**
     * One publication's outcome among many: the message id, or null when the queue did not take it. {@code sentAt}
     * is when it went to the queue, before anything the message causes.
     */
    public record Published(Publication publication, Instant sentAt, long delaySeconds, String messageId,
            Throwable failure) {

        public boolean succeeded() {
            return messageId != null;
        }

        /** The timeline's published or publish_failed event (docs/contract.md#timeline). */
        public TimelineEvent event() {
            Map<String, Object> detail = new LinkedHashMap<>();
            if (succeeded()) {
                detail.put("message_id", messageId);
                detail.put("delay_seconds", delaySeconds);
                detail.put("publish_key", publication.publishKey());
            } else {
                detail.put("error", TransportFailure.messageOf(failure));
            }
            detail.put("via", publication.via().wireName());
            return new TimelineEvent(publication.reminderId(), sentAt,
                    succeeded() ? EventType.PUBLISHED : EventType.PUBLISH_FAILED, detail);
        }
    }

    /**
     * Publishes many, at most tickler.infrai.publish-concurrency at once; never fails: each outcome says whether its
     * publish was taken. Outcomes come in the order the publications were given. Their events are the caller's to
     * write: a hand-off writes most of them with its marks, in the same statement, and the rest with {@link #record}.
     */
    public Uni<List<Published>> publishAll(List<Publication> publications) {
        if (publications.isEmpty()) {
            return Uni.createFrom().item(List.of());
        }
        return Multi.createFrom().range(0, publications.size())
                .onItem().transformToUni(index -> send(publications.get(index)).map(outcome -> Map.entry(index, outcome)))
                .merge(concurrency)
                .collect().asList()
                .map(outcomes -> {
                    Published[] inOrder = new Published[publications.size()];
                    outcomes.forEach(outcome -> inOrder[outcome.getKey()] = outcome.getValue());
                    return List.of(inOrder);
                });
    }

    /** Writes the events of outcomes whose events no state change wrote. */
    public Uni<Void> record(List<Published> outcomes) {
        return timeline.append(outcomes.stream().map(Published::event).toList());
    }

    /**
     * Publishes and answers the message id; a repeated publish key answers the first message's id. A due time beyond
     * the queue's ceiling is refused by the adapter, never rounded. Either way the reminder's timeline says so.
     */
    public Uni<String> publish(Publication publication) {
        return send(publication).call(outcome -> timeline.append(outcome.event()))
                .chain(outcome -> outcome.succeeded() ? Uni.createFrom().item(outcome.messageId())
                        : Uni.createFrom().failure(outcome.failure()));
    }

    /** The message carries the publish span's context, so the push that brings it back continues its trace. */
    private Uni<Published> send(Publication publication) {
        return Uni.createFrom().deferred(() -> {
            Instant sentAt = clock.instant();
            long delay = delaySeconds(publication.dueAt(), sentAt);
            String queue = infrai.queueFor(publication.channel());
            Span span = tracing.startPublish(publication.trace(), publication.origin(), queue,
                    publication.reminderId(), publication.version(), publication.via().wireName());
            return infrai.publish(queue, publication.message(tracing.headersOf(span)), delay, publication.publishKey())
                    .map(messageId -> new Published(publication, sentAt, delay, messageId, null))
                    .onFailure().recoverWithItem(failure -> new Published(publication, sentAt, delay, null, failure))
                    .invoke(outcome -> tracing.endPublish(span, outcome.messageId(), outcome.failure()));
        });
    }
}
