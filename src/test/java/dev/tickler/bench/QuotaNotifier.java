package dev.tickler.bench;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonObject;

/**
 * A notification provider with a published quota, for the campaign benchmarks: every send is answered after
 * {@code latency-millis} (default {@value #LATENCY_MILLIS}) ms, and a send beyond {@code quota-per-second} (default
 * {@value #QUOTA_PER_SECOND}; {@code none} for a provider without one) in the last second is answered 429 with
 * {@code Retry-After: 1} at once; both are the resource's init arguments. Counts what it was asked, what it took and
 * refused in each second of the wall clock, and every send key it answered 2xx more than once.
 */
public class QuotaNotifier implements QuarkusTestResourceLifecycleManager {

    static final long LATENCY_MILLIS = 100;
    static final int QUOTA_PER_SECOND = 1_000;

    static final AtomicLong calls = new AtomicLong();
    static final AtomicLong rateLimited = new AtomicLong();
    static final AtomicLong duplicates = new AtomicLong();
    /** Calls taken and refused, by the epoch second they arrived in: the provider's own view of the pace. */
    static final Map<Long, AtomicLong> takenBySecond = new ConcurrentHashMap<>();
    static final Map<Long, AtomicLong> refusedBySecond = new ConcurrentHashMap<>();
    private static final Map<String, Boolean> sent = new ConcurrentHashMap<>();
    /** While set, every send is taken: a warm-up that no 429 answers teaches the application no pace. */
    static volatile boolean quotaSuspended;

    private final Deque<Long> lastSecond = new ArrayDeque<>();
    private Vertx vertx;
    private long latencyMillis = LATENCY_MILLIS;
    private int quotaPerSecond = QUOTA_PER_SECOND;

    @Override
    public void init(Map<String, String> initArgs) {
        latencyMillis = Long.parseLong(initArgs.getOrDefault("latency-millis", Long.toString(LATENCY_MILLIS)));
        String quota = initArgs.getOrDefault("quota-per-second", Integer.toString(QUOTA_PER_SECOND));
        quotaPerSecond = quota.equals("none") ? Integer.MAX_VALUE : Integer.parseInt(quota);
    }

    @Override
    public Map<String, String> start() {
        forget();
        vertx = Vertx.vertx();
        int port = vertx.createHttpServer(new HttpServerOptions().setTcpNoDelay(true))
                .requestHandler(request -> request.body().onSuccess(body -> answer(request, body.toJsonObject())))
                .listen(0, "127.0.0.1")
                .toCompletionStage().toCompletableFuture().join().actualPort();
        return Map.of("tickler.notify.url", "http://127.0.0.1:" + port + "/notify");
    }

    private void answer(HttpServerRequest request, JsonObject notification) {
        calls.incrementAndGet();
        long second = System.currentTimeMillis() / 1000;
        if (!withinQuota(System.nanoTime())) {
            rateLimited.incrementAndGet();
            refusedBySecond.computeIfAbsent(second, s -> new AtomicLong()).incrementAndGet();
            request.response().setStatusCode(429).putHeader("Retry-After", "1").end();
            return;
        }
        takenBySecond.computeIfAbsent(second, s -> new AtomicLong()).incrementAndGet();
        vertx.setTimer(latencyMillis, timer -> {
            String key = request.getHeader("Idempotency-Key");
            if (key != null && sent.putIfAbsent(key, Boolean.TRUE) != null) {
                duplicates.incrementAndGet();
            }
            request.response().putHeader("Content-Type", "application/json").end("{}");
        });
    }

    /** A sliding one-second window over the sends it accepted. */
    private synchronized boolean withinQuota(long now) {
        if (quotaPerSecond == Integer.MAX_VALUE || quotaSuspended) {
            return true;
        }
        while (!lastSecond.isEmpty() && now - lastSecond.peekFirst() >= 1_000_000_000L) {
            lastSecond.pollFirst();
        }
        if (lastSecond.size() >= quotaPerSecond) {
            return false;
        }
        lastSecond.addLast(now);
        return true;
    }

    /** Counts from zero again: what came before (a warm-up) is not the run's. */
    static void forget() {
        calls.set(0);
        rateLimited.set(0);
        duplicates.set(0);
        sent.clear();
        takenBySecond.clear();
        refusedBySecond.clear();
    }

    static long accepted() {
        return sent.size();
    }

    @Override
    public void stop() {
        if (vertx != null) {
            vertx.close().toCompletionStage().toCompletableFuture().join();
        }
    }
}
