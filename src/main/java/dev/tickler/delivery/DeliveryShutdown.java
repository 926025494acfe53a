package dev.tickler.delivery;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import org.jboss.logging.Logger;

import io.quarkus.runtime.ShutdownDelayInitiatedEvent;
import io.quarkus.runtime.ShutdownEvent;
import io.smallrye.mutiny.Multi;

import dev.tickler.config.TicklerConfig;

/**
 * On SIGTERM: stop claiming, give in-flight sends the grace to finish, then release what is still held so it is
 * delivered again rather than waiting out its lease.
 * <p>
 * It runs at the first step of Quarkus's shutdown, {@link ShutdownDelayInitiatedEvent} (fired because production
 * builds have {@code quarkus.shutdown.delay-enabled}), while the queue's and the notifier's HTTP clients and the pool
 * still work. By {@link ShutdownEvent} Quarkus has undeployed the HTTP verticles, and a REST client first used on one
 * of their event loops is closed with it: a release from there failed with "Client is closed" and left its claim to
 * run out its lease. The later event stays as the fallback where the early one is not built in (dev mode, tests).
 */
@ApplicationScoped
public class DeliveryShutdown {

    private static final Logger LOG = Logger.getLogger(DeliveryShutdown.class);
    private static final long POLL_MILLIS = 20;

    private final DeliveryIntake delivery;
    private final Settlement settlement;
    private final PollingConsumer poller;
    private final Duration grace;
    private final Duration release;
    private final AtomicBoolean drained = new AtomicBoolean();

    public DeliveryShutdown(DeliveryIntake delivery, Settlement settlement, PollingConsumer poller,
            TicklerConfig config) {
        this.delivery = delivery;
        this.settlement = settlement;
        this.poller = poller;
        this.grace = config.delivery().shutdownGrace();
        this.release = config.delivery().shutdownRelease();
    }

    void beforeShutdown(@Observes ShutdownDelayInitiatedEvent shutdown) {
        drainOnce();
    }

    void onShutdown(@Observes ShutdownEvent shutdown) {
        drainOnce();
    }

    private void drainOnce() {
        if (drained.compareAndSet(false, true)) {
            drain(grace);
        }
    }

    /**
     * Blocks the stopping thread (never an event loop) for at most the grace, then releases what is left within the
     * release budget (tickler.delivery.shutdown-release).
     */
    void drain(Duration within) {
        delivery.stopAccepting();
        poller.stop();
        long deadline = System.nanoTime() + within.toNanos();
        while (!delivery.held().isEmpty() && System.nanoTime() < deadline) {
            try {
                Thread.sleep(POLL_MILLIS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        List<ClaimedReminder> unfinished = List.copyOf(delivery.held().values());
        if (unfinished.isEmpty()) {
            return;
        }
        LOG.infof("releasing %d deliveries still in flight after %s", unfinished.size(), within);
        Multi.createFrom().iterable(unfinished)
                .onItem().transformToUniAndMerge(settlement::release)
                .collect().last()
                .await().atMost(release);
    }
}
