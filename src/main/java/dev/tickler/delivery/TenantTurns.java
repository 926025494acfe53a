package dev.tickler.delivery;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntSupplier;

import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.subscription.UniEmitter;

/**
 * Who goes to the notifier next when the provider is the bottleneck (docs/delivery.md, "Fair delivery"): at most
 * {@code capacity} deliveries hold a turn at once, the notifier throttle's current limit, so the throttle's own queue
 * stays short; the others wait here, one queue per tenant, and a freed turn goes to the next tenant in rotation that
 * has one waiting. A tenant with 10,000 waiting and one with 20 take turns one for one: the second tenant's
 * reminders wait for a few turns, not for the first one's backlog.
 */
final class TenantTurns {

    private final IntSupplier capacity;
    private final Map<String, Deque<Waiter>> waitingByTenant = new HashMap<>();
    /** The tenants with someone waiting, in the order they are served next; each appears once. */
    private final Deque<String> rotation = new ArrayDeque<>();
    private int holding;
    private int waiting;

    TenantTurns(IntSupplier capacity) {
        this.capacity = capacity;
    }

    /** A turn for this tenant's delivery, at once when one is free and nobody waits; give it back with release(). */
    Uni<Turn> take(String tenant) {
        return Uni.createFrom().deferred(() -> {
            Waiter waiter = new Waiter();
            return Uni.createFrom().<Turn>emitter(emitter -> {
                synchronized (this) {
                    if (waiting > 0 || holding >= capacity.getAsInt()) {
                        waiter.emitter = emitter;
                        Deque<Waiter> queue = waitingByTenant.computeIfAbsent(tenant, name -> new ArrayDeque<>());
                        if (queue.isEmpty()) {
                            rotation.addLast(tenant);
                        }
                        queue.addLast(waiter);
                        waiting++;
                        return;
                    }
                    holding++;
                }
                emitter.complete(new Turn());
            }).onCancellation().invoke(waiter::cancel);
        });
    }

    synchronized int waiting() {
        return waiting;
    }

    /** Frees a turn and hands as many as the capacity, perhaps changed meanwhile, allows to the tenants in rotation. */
    private void release() {
        List<Waiter> starting = new ArrayList<>();
        synchronized (this) {
            holding--;
            while (waiting > 0 && holding < capacity.getAsInt()) {
                String tenant = rotation.pollFirst();
                Deque<Waiter> queue = waitingByTenant.get(tenant);
                Waiter next = queue.pollFirst();
                waiting--;
                if (queue.isEmpty()) {
                    waitingByTenant.remove(tenant);
                } else {
                    rotation.addLast(tenant);
                }
                if (!next.cancelled) {
                    holding++;
                    starting.add(next);
                }
            }
        }
        starting.forEach(Waiter::start);
    }

    /** A delivery waiting for its turn; one cancelled while waiting is passed over, and never holds a turn. */
    private final class Waiter {

        /** Guarded by the turns' lock, like cancelled. */
        private UniEmitter<? super Turn> emitter;
        private boolean cancelled;

        void cancel() {
            synchronized (TenantTurns.this) {
                cancelled = true;
            }
        }

        void start() {
            Turn turn = new Turn();
            emitter.complete(turn);
            boolean cancelledMeanwhile;
            synchronized (TenantTurns.this) {
                cancelledMeanwhile = cancelled;
            }
            if (cancelledMeanwhile) {
                // cancelled between being chosen and being handed the turn: the item went nowhere, so give it back
                turn.release();
            }
        }
    }

    /** One delivery's turn at the notifier; giving it back twice frees it once. */
    final class Turn {

        private boolean released;

        void release() {
            synchronized (TenantTurns.this) {
                if (released) {
                    return;
                }
                released = true;
            }
            TenantTurns.this.release();
        }
    }
}
