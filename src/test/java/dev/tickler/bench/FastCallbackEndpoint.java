package dev.tickler.bench;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerOptions;

/**
 * A product service's callback endpoint for benchmarks: a Vert.x server on its own event loop that answers every
 * callback 204 at once and counts them, with the first and last arrival since {@link #reset()}, so a run can compute
 * callbacks per second without the endpoint's own cost in the figure. Wired in as the callback URL of
 * {@value #TENANT}.
 */
public class FastCallbackEndpoint implements QuarkusTestResourceLifecycleManager {

    static final String TENANT = "hooked";
    static final String SECRET = "whsec_" + Base64.getEncoder().encodeToString(
            "benchmark-callback-signing-key-bytes".getBytes(StandardCharsets.UTF_8));

    static final AtomicLong received = new AtomicLong();
    static final AtomicLong firstNanos = new AtomicLong();
    static final AtomicLong lastNanos = new AtomicLong();

    private Vertx vertx;

    static void reset() {
        received.set(0);
        firstNanos.set(0);
        lastNanos.set(0);
    }

    /** Callbacks per second between the first and the last arrival since the reset. */
    static double perSecond() {
        long span = lastNanos.get() - firstNanos.get();
        return span <= 0 ? 0 : (received.get() - 1) / (span / 1e9);
    }

    @Override
    public Map<String, String> start() {
        vertx = Vertx.vertx();
        int port = vertx.createHttpServer(new HttpServerOptions().setTcpNoDelay(true))
                .requestHandler(request -> request.body().onComplete(body -> {
                    long now = System.nanoTime();
                    firstNanos.compareAndSet(0, now);
                    lastNanos.set(now);
                    received.incrementAndGet();
                    request.response().setStatusCode(204).end();
                }))
                .listen(0, "127.0.0.1")
                .toCompletionStage().toCompletableFuture().join().actualPort();
        return Map.of("tickler.tenants.\"" + TENANT + "\".callback-url", "http://127.0.0.1:" + port + "/hooks",
                "tickler.tenants.\"" + TENANT + "\".callback-secret", SECRET);
    }

    @Override
    public void stop() {
        if (vertx != null) {
            vertx.close().toCompletionStage().toCompletableFuture().join();
        }
    }
}
