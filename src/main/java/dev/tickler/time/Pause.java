package dev.tickler.time;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import jakarta.enterprise.context.ApplicationScoped;

import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;

/**
 * Waits without blocking, on a Vert.x timer: the chain resumes on the caller's Vert.x context, which reactive
 * sessions need (Mutiny's own delays resume on a worker thread).
 */
@ApplicationScoped
public class Pause {

    private final Vertx vertx;

    public Pause(Vertx vertx) {
        this.vertx = vertx;
    }

    public Uni<Void> of(Duration wait) {
        return Uni.createFrom().emitter(emitter -> after(wait.toNanos(), () -> emitter.complete(null)));
    }

    /**
     * Runs {@code action} on a Vert.x timer, {@code nanos} from now (at least a millisecond): a mechanism's own wake-up
     * (a batcher's linger, the notifier's pace), not a wait a delivery chose, so it is not one of {@link #of}'s waits.
     */
    public void after(long nanos, Runnable action) {
        vertx.setTimer(Math.max(1, TimeUnit.NANOSECONDS.toMillis(nanos)), timerId -> action.run());
    }
}
