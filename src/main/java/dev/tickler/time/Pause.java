package dev.tickler.time;

import java.time.Duration;

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
        return Uni.createFrom().emitter(emitter -> vertx.setTimer(Math.max(1, wait.toMillis()),
                timerId -> emitter.complete(null)));
    }
}
