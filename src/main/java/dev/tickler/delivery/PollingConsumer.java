package dev.tickler.delivery;

import java.time.Duration;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import org.jboss.logging.Logger;

import com.fasterxml.jackson.databind.ObjectMapper;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;

import dev.tickler.config.TicklerConfig;
import dev.tickler.delivery.DeliveryIntake.Acceptance;
import dev.tickler.infrai.InfraiClient;
import dev.tickler.infrai.InfraiException;
import dev.tickler.infrai.InfraiModels.ConsumedMessage;
import dev.tickler.publish.ReminderMessage;
import dev.tickler.time.Pause;

/**
 * The polling fallback (docs/contract.md#polling-fallback, tickler.delivery.mode=poll): consume, claim and deliver
 * through the same code as a push, then ack; nack what could not be taken so the queue offers it again.
 */
@ApplicationScoped
public class PollingConsumer {

    private static final Logger LOG = Logger.getLogger(PollingConsumer.class);
    private static final int MAX_MESSAGES = 10;

    private final InfraiClient infrai;
    private final DeliveryIntake delivery;
    private final PushMessages messages;
    private final Pause pause;
    private final TicklerConfig.Delivery config;
    private final Counter ackNotInFlight;
    private volatile boolean running;

    public PollingConsumer(InfraiClient infrai, DeliveryIntake delivery, ObjectMapper mapper, Pause pause,
            TicklerConfig config, MeterRegistry registry) {
        this.infrai = infrai;
        this.delivery = delivery;
        this.messages = new PushMessages(mapper);
        this.pause = pause;
        this.config = config.delivery();
        this.ackNotInFlight = Counter.builder("tickler.poll.ack.not.in.flight")
                .description("Acks refused because the message's lease ran out first").register(registry);
    }

    void start(@Observes StartupEvent startup) {
        if (config.mode() != TicklerConfig.DeliveryMode.poll) {
            return;
        }
        running = true;
        for (String queue : infrai.queues()) {
            LOG.infof("polling queue %s", queue);
            poll(queue);
        }
    }

    /** Stops asking for messages; those already taken finish through the normal path. */
    void stop() {
        running = false;
    }

    private void poll(String queue) {
        if (!running) {
            return;
        }
        infrai.consume(queue, MAX_MESSAGES)
                .call(items -> handleAll(queue, items))
                .map(items -> items.isEmpty() ? config.pollInterval() : Duration.ZERO)
                .onFailure().recoverWithItem(failure -> {
                    LOG.warnf("consume from %s failed: %s", queue, failure.getMessage());
                    return config.pollInterval();
                })
                .chain(wait -> wait.isZero() ? Uni.createFrom().voidItem() : pause.of(wait))
                .subscribe().with(ignored -> poll(queue));
    }

    private Uni<Void> handleAll(String queue, List<ConsumedMessage> items) {
        return Multi.createFrom().iterable(items)
                .onItem().transformToUniAndMerge(item -> handle(queue, item))
                .collect().last().replaceWithVoid();
    }

    private Uni<Void> handle(String queue, ConsumedMessage item) {
        ReminderMessage message;
        try {
            message = messages.parse(item.payload()).message();
        } catch (PushMessages.Unreadable e) {
            LOG.errorf("message %s on %s is not a Tickler message (%s); acknowledged and dropped", item.messageId(),
                    queue, e.getMessage());
            return ack(queue, item);
        }
        return delivery.accept(message, item.deliveryCount(), Transport.POLL)
                .chain(acceptance -> {
                    if (acceptance instanceof Acceptance.Claimed claimed) {
                        return claimed.settled().chain(() -> ack(queue, item));
                    }
                    if (acceptance instanceof Acceptance.NotClaimed) {
                        return ack(queue, item);
                    }
                    return nack(queue, item);
                })
                .onFailure().recoverWithUni(failure -> {
                    LOG.warnf("message %s on %s not handled (%s); nacked", item.messageId(), queue, failure.getMessage());
                    return nack(queue, item);
                });
    }

    private Uni<Void> ack(String queue, ConsumedMessage item) {
        return infrai.ack(queue, item.messageId())
                .onFailure(InfraiException.class).recoverWithUni(failure -> {
                    if (InfraiException.MESSAGE_NOT_IN_FLIGHT.equals(((InfraiException) failure).code())) {
                        ackNotInFlight.increment();
                        LOG.warnf("ack of %s on %s came after its lease ran out; the queue will offer it again",
                                item.messageId(), queue);
                        return Uni.createFrom().voidItem();
                    }
                    return Uni.createFrom().failure(failure);
                });
    }

    private Uni<Void> nack(String queue, ConsumedMessage item) {
        return infrai.nack(queue, item.messageId())
                .onFailure().invoke(failure -> LOG.warnf("nack of %s on %s failed (%s); its lease will run out",
                        item.messageId(), queue, failure.getMessage()))
                .onFailure().recoverWithNull();
    }
}
