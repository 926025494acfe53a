package dev.tickler.delivery;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;

import org.jboss.logging.Logger;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.Startup;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;

import dev.tickler.config.TicklerConfig;
import dev.tickler.ledger.ReminderLedger;
import dev.tickler.time.Pause;

/**
 * The claims this instance holds, and their leases (docs/contract.md#states, docs/delivery.md "Leases"). A claim is
 * held from the moment it is made until its delivery is settled, however long it waits for a notifier slot, the
 * provider's pace or an in-process retry; every third of a lease, the leases that have run a third are renewed in
 * bulk, so a slow provider never lets the reconciler take over a claim that is still held. A renewal that finds a
 * claim gone (taken over after an outage) marks it lost, and nothing more is sent under it. Built at start, so that its
 * gauge is exported before the first push (an absent series alerts on nothing).
 */
@Startup
@ApplicationScoped
public class HeldDeliveries {

    private static final Logger LOG = Logger.getLogger(HeldDeliveries.class);
    /** What a send needs of its lease beyond the notifier's timeout before it goes out. */
    private static final Duration SEND_MARGIN = Duration.ofSeconds(1);
    /** How often a send whose lease cannot be renewed (Postgres unreachable) asks again, while the lease lasts. */
    private static final Duration RENEW_RETRY = Duration.ofMillis(500);

    private final Map<Long, ClaimedReminder> held = new ConcurrentHashMap<>();
    /** How many of the held claims each tenant has; a tenant holding none has no entry. */
    private final Map<String, Integer> heldByTenant = new ConcurrentHashMap<>();
    private final ReminderLedger ledger;
    private final Clock clock;
    private final Pause pause;
    private final Vertx vertx;
    private final Duration lease;
    private final Duration renewEvery;
    private final Duration neededToSend;
    private final Counter renewed;
    private final Counter lost;
    private final AtomicBoolean renewing = new AtomicBoolean();
    private volatile Long timer;

    public HeldDeliveries(ReminderLedger ledger, Clock clock, Pause pause, Vertx vertx, MeterRegistry registry,
            TicklerConfig config) {
        this.ledger = ledger;
        this.clock = clock;
        this.pause = pause;
        this.vertx = vertx;
        this.lease = config.delivery().lease();
        this.renewEvery = lease.dividedBy(3);
        this.neededToSend = config.notifier().timeout().plus(SEND_MARGIN);
        this.renewed = Counter.builder("tickler.delivery.lease.renewals")
                .description("Leases of held deliveries renewed while they waited or ran").register(registry);
        this.lost = Counter.builder("tickler.delivery.lease.lost")
                .description("Held deliveries whose claim another delivery had taken over; nothing more was sent")
                .register(registry);
        Gauge.builder("tickler.delivery.held", held, Map::size)
                .description("Reminders claimed by this instance and not yet settled").register(registry);
    }

    /** The lease a claim made now gets. */
    Duration lease() {
        return lease;
    }

    void add(ClaimedReminder claim) {
        if (held.put(claim.id(), claim) == null) {
            heldByTenant.merge(claim.tenant(), 1, Integer::sum);
        }
        if (timer == null) {
            startRenewing();
        }
    }

    void remove(ClaimedReminder claim) {
        if (held.remove(claim.id(), claim)) {
            heldByTenant.computeIfPresent(claim.tenant(), (tenant, count) -> count == 1 ? null : count - 1);
        }
    }

    int size() {
        return held.size();
    }

    int heldBy(String tenant) {
        return heldByTenant.getOrDefault(tenant, 0);
    }

    /** Tenants with at least one held claim. */
    int tenantsHolding() {
        return heldByTenant.size();
    }

    Map<Long, ClaimedReminder> view() {
        return Collections.unmodifiableMap(held);
    }

    private synchronized void startRenewing() {
        if (timer == null) {
            timer = vertx.setPeriodic(Math.max(1, renewEvery.toMillis()), id -> renewAging().subscribe().with(
                    ignored -> {
                    }, failure -> LOG.warnf("leases of held deliveries could not be renewed (%s); renewed again in %s"
                            + " while they last", failure.getMessage(), renewEvery)));
        }
    }

    @PreDestroy
    void stopRenewing() {
        Long id = timer;
        if (id != null) {
            vertx.cancelTimer(id);
        }
    }

    /** Renews every lease that has run at least a third of its length; one renewal at a time. */
    Uni<Void> renewAging() {
        if (held.isEmpty() || !renewing.compareAndSet(false, true)) {
            return Uni.createFrom().voidItem();
        }
        Instant now = clock.instant();
        Instant renewBefore = now.plus(lease).minus(renewEvery);
        List<ClaimedReminder> aging = held.values().stream()
                .filter(claim -> claim.lease().renewable() && !claim.lease().until().isAfter(renewBefore))
                .toList();
        return renew(aging, now).replaceWithVoid().onTermination().invoke(() -> renewing.set(false));
    }

    /**
     * Before a send goes out: whether its lease lasts beyond the notifier's timeout, renewed now if it would not.
     * False when the claim is lost, or its lease runs out while Postgres cannot be asked: then nothing is sent, and the
     * reconciler delivers the reminder once the lease has ended.
     */
    Uni<Boolean> keepForSend(ClaimedReminder claim) {
        Lease current = claim.lease();
        if (current.lost()) {
            return Uni.createFrom().item(false);
        }
        Instant now = clock.instant();
        if (current.holdsBeyond(now.plus(neededToSend))) {
            return Uni.createFrom().item(true);
        }
        if (!current.holdsBeyond(now)) {
            return Uni.createFrom().item(false);
        }
        return renew(List.of(claim), now)
                .map(stillHeld -> stillHeld.contains(claim.id()))
                .onFailure().recoverWithUni(failure -> pause.of(RENEW_RETRY).chain(() -> keepForSend(claim)));
    }

    /** Renews the given claims' leases from now; answers the ids still held. */
    private Uni<Set<Long>> renew(List<ClaimedReminder> aging, Instant now) {
        if (aging.isEmpty()) {
            return Uni.createFrom().item(Set.of());
        }
        Instant until = now.plus(lease);
        return ledger.renewLeases(aging, until).invoke(stillHeld -> {
            for (ClaimedReminder claim : aging) {
                if (stillHeld.contains(claim.id())) {
                    claim.lease().renewedUntil(until);
                    renewed.increment();
                } else if (claim.lease().renewable()) {
                    // a claim that settled meanwhile is not lost; one still held here but gone from the row is
                    claim.lease().lose();
                    lost.increment();
                    LOG.warnf("claim on reminder %d (version %d) was taken over while this instance held it; nothing"
                            + " more is sent under it", claim.id(), claim.version());
                }
            }
        });
    }
}
