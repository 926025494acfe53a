package dev.tickler.time;

import java.util.function.Supplier;

import io.smallrye.common.vertx.VertxContext;
import io.vertx.core.Context;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.impl.ContextInternal;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.impl.RoutingContextInternal;

/**
 * The two places Tickler reaches past Vert.x's public API, kept here so an upgrade has one file to check. Each does
 * what no public call can: run work on a context of its own right now (dispatching, not scheduling, it), and give a
 * request whose body the edge has already read an empty body instead of none.
 */
public final class VertxInternals {

    private VertxInternals() {
    }

    /**
     * Runs the work now, on this thread, with a fresh duplicate of {@code current} as the current context: whatever the
     * work captures (Mutiny's callbacks capture the active CDI request context) is that fresh context's, not the
     * request's, whose ArC state cannot be removed, only left.
     */
    public static <T> T onFreshDuplicate(Context current, Supplier<T> work) {
        ContextInternal own = (ContextInternal) VertxContext.createNewDuplicatedContext(current);
        ContextInternal previous = own.beginDispatch();
        try {
            return work.get();
        } finally {
            own.endDispatch(previous);
        }
    }

    /** An empty body for a request whose body reader found none, so the REST layer does not wait for one. */
    public static void setEmptyBody(RoutingContext context) {
        ((RoutingContextInternal) context).setBody(Buffer.buffer());
    }
}
