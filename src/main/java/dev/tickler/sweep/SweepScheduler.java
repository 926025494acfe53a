package dev.tickler.sweep;

import jakarta.enterprise.context.ApplicationScoped;

import io.quarkus.scheduler.Scheduled;
import io.quarkus.scheduler.ScheduledExecution;
import io.smallrye.mutiny.Uni;

import dev.tickler.config.TicklerConfig;

/**
 * The scheduled sweep (every tickler.sweep.every) and reconcile pass (every tickler.reconcile.every), each skipped
 * while its previous run is still going, and both off with tickler.sweep.enabled=false.
 */
@ApplicationScoped
public class SweepScheduler {

    private final SweepService sweep;

    public SweepScheduler(SweepService sweep) {
        this.sweep = sweep;
    }

    @Scheduled(identity = "sweep", every = "${tickler.sweep.every:1h}", delayed = "${tickler.sweep.every:1h}",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP, skipExecutionIf = Disabled.class)
    Uni<Void> scheduledSweep() {
        return sweep.run().replaceWithVoid();
    }

    /** The reconcile pass on its own, shorter period, on the same instances as the sweep. */
    @Scheduled(identity = "reconcile", every = "${tickler.reconcile.every:1m}", delayed = "${tickler.reconcile.every:1m}",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP, skipExecutionIf = Disabled.class)
    Uni<Void> scheduledReconcile() {
        return sweep.reconcileNow().replaceWithVoid();
    }

    /** tickler.sweep.enabled=false: a receiver-only deployment leaves the sweep to its own function. */
    @ApplicationScoped
    public static class Disabled implements Scheduled.SkipPredicate {

        private final boolean enabled;

        public Disabled(TicklerConfig config) {
            this.enabled = config.sweep().enabled();
        }

        @Override
        public boolean test(ScheduledExecution execution) {
            return !enabled;
        }
    }
}
