package dev.tickler.db;

import java.util.concurrent.Executor;

import io.vertx.core.Context;
import io.vertx.core.Vertx;

/** Where a caller continues once work done for it elsewhere (a batch, a shared hand-off) has answered. */
public final class CallerContext {

    private CallerContext() {
    }

    /**
     * Runs on the given Vert.x context, as after a statement of the caller's own: at once when already there (or when
     * the caller had none), else queued onto it.
     */
    public static Executor of(Context context) {
        return task -> {
            if (context == null || context == Vertx.currentContext()) {
                task.run();
            } else {
                context.runOnContext(ignored -> task.run());
            }
        };
    }
}
