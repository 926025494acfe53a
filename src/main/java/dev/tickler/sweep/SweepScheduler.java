package dev.tickler.sweep;

import jakarta.enterprise.context.ApplicationScoped;

import io.quarkus.scheduler.Scheduled;
import io.quarkus.scheduler.ScheduledExecution;
import io.smallrye.mutiny.Uni;

import dev.tickler.config.TicklerConfig;

/** The scheduled sweep: every tickler.sweep.every, skipped while a run is still going or when turned off. */
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
