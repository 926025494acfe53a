package dev.tickler.bench;

import java.util.Map;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerOptions;

/**
 * A notifier for benchmarks: a Vert.x server on its own event loop that answers every notification 200 at once, or,
 * once {@link #stall() stalled}, never. Unlike the scripted stand-in it costs almost no CPU per call, so the figures
 * are the application's and not the stand-in's. TCP_NODELAY is set explicitly: a small response held back by Nagle's
 * algorithm waits for the caller's delayed ACK, about 40 ms per call on Linux.
 */
public class FastNotifier implements QuarkusTestResourceLifecycleManager {

    private static volatile boolean stalled;

    private Vertx vertx;

    /** From now on notifications get no answer: deliveries wait behind the notifier's concurrency limit. */
    static void stall() {
        stalled = true;
    }

    @Override
    public Map<String, String> start() {
        stalled = false;
        vertx = Vertx.vertx();
        int port = vertx.createHttpServer(new HttpServerOptions().setTcpNoDelay(true))
                .requestHandler(request -> request.body().onComplete(body -> {
                    if (!stalled) {
                        request.response().putHeader("Content-Type", "application/json").end("{}");
                    }
                }))
                .listen(0, "127.0.0.1")
                .toCompletionStage().toCompletableFuture().join().actualPort();
        return Map.of("tickler.notify.url", "http://127.0.0.1:" + port + "/notify");
    }

    @Override
    public void stop() {
        if (vertx != null) {
            vertx.close().toCompletionStage().toCompletableFuture().join();
        }
    }
}
