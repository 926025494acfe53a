package dev.tickler.bench;

import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

import io.vertx.core.AsyncResult;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;

/** Drives a server over loopback HTTP, open-loop at a fixed rate or closed-loop at saturation, and times each request. */
final class LoadGenerator implements AutoCloseable {

    private final Vertx vertx;
    private final HttpClient client;
    private final Map<String, Integer> failureReasons = new ConcurrentHashMap<>();

    LoadGenerator(Vertx vertx) {
        this.vertx = vertx;
        this.client = vertx.createHttpClient(new HttpClientOptions().setKeepAlive(true),
                new PoolOptions().setHttp1MaxSize(256));
    }

    /** POSTs a JSON body and answers the status once the whole response has been read. */
    Future<Integer> post(int port, String uri, String json) {
        return post(port, uri, json, null);
    }

    /** The same with a bearer key, as the registration API wants. */
    Future<Integer> post(int port, String uri, String json, String bearerKey) {
        return send(HttpMethod.POST, port, uri, json, bearerKey);
    }

    /** A request of any method with a JSON body and a bearer key. */
    Future<Integer> send(HttpMethod method, int port, String uri, String json, String bearerKey) {
        RequestOptions options = new RequestOptions().setMethod(method).setHost("127.0.0.1").setPort(port)
                .setURI(uri).putHeader("Content-Type", "application/json");
        if (bearerKey != null) {
            options.putHeader("Authorization", "Bearer " + bearerKey);
        }
        return client.request(options)
                .compose(request -> request.send(Buffer.buffer(json)))
                .compose(response -> response.body().map(ignored -> response.statusCode()));
    }

    /** Why requests failed so far, with how often; empty while none has. */
    Map<String, Integer> failureReasons() {
        return failureReasons;
    }

    /** Sends at a fixed rate whatever the answers do; each latency counts from the moment its request was due. */
    Result openLoop(int rate, Duration length, Supplier<Future<Integer>> request) throws Exception {
        int total = (int) (rate * length.toSeconds());
        long[] latencies = new long[total];
        AtomicInteger done = new AtomicInteger();
        AtomicInteger failures = new AtomicInteger();
        CompletableFuture<Void> finished = new CompletableFuture<>();
        long start = System.nanoTime();
        AtomicInteger sent = new AtomicInteger();
        long intervalNanos = 1_000_000_000L / rate;
        vertx.setPeriodic(1, timer -> {
            long dueCount = Math.min(total, (System.nanoTime() - start) / intervalNanos + 1);
            while (sent.get() < dueCount) {
                int index = sent.getAndIncrement();
                long dueAt = start + index * intervalNanos;
                send(request).onComplete(outcome -> {
                    latencies[index] = System.nanoTime() - dueAt;
                    countIfFailed(outcome, failures);
                    if (done.incrementAndGet() == total) {
                        finished.complete(null);
                    }
                });
            }
            if (sent.get() >= total) {
                vertx.cancelTimer(timer);
            }
        });
        finished.get();
        return new Result(latencies, failures.get(), System.nanoTime() - start);
    }

    /** Keeps {@code concurrency} requests in flight, at most {@code maxRequests} in all. */
    Result closedLoop(int concurrency, Duration length, int maxRequests, Supplier<Future<Integer>> request)
            throws Exception {
        long[] latencies = new long[maxRequests];
        AtomicInteger done = new AtomicInteger();
        AtomicInteger failures = new AtomicInteger();
        AtomicInteger running = new AtomicInteger(concurrency);
        CompletableFuture<Void> finished = new CompletableFuture<>();
        long start = System.nanoTime();
        long end = start + length.toNanos();
        Runnable[] next = new Runnable[1];
        next[0] = () -> {
            if (System.nanoTime() >= end || done.get() >= latencies.length - concurrency) {
                if (running.decrementAndGet() == 0) {
                    finished.complete(null);
                }
                return;
            }
            long sentAt = System.nanoTime();
            send(request).onComplete(outcome -> {
                int index = done.getAndIncrement();
                latencies[index] = System.nanoTime() - sentAt;
                countIfFailed(outcome, failures);
                next[0].run();
            });
        };
        for (int i = 0; i < concurrency; i++) {
            next[0].run();
        }
        finished.get();
        return new Result(Arrays.copyOf(latencies, done.get()), failures.get(), System.nanoTime() - start);
    }

    record Result(long[] latencies, int failures, long elapsedNanos) {

        double elapsedSeconds() {
            return elapsedNanos / 1e9;
        }

        String describe(String label) {
            long[] sorted = latencies.clone();
            Arrays.sort(sorted);
            double seconds = elapsedNanos / 1e9;
            return String.format("%-32s pushes %7d  acked/s %7.0f  p50 %6.2f ms  p99 %6.2f ms  max %7.2f ms  failures %d",
                    label, sorted.length, sorted.length / seconds, millis(sorted, 0.50), millis(sorted, 0.99),
                    sorted.length == 0 ? 0 : sorted[sorted.length - 1] / 1e6, failures);
        }

        private static double millis(long[] sorted, double quantile) {
            if (sorted.length == 0) {
                return 0;
            }
            return sorted[(int) Math.min(sorted.length - 1, Math.ceil(quantile * sorted.length) - 1)] / 1e6;
        }
    }

    /** Anything but a 2xx is a failure, counted for the run and by reason. */
    private void countIfFailed(AsyncResult<Integer> outcome, AtomicInteger failures) {
        if (outcome.failed() || outcome.result() / 100 != 2) {
            failures.incrementAndGet();
            failureReasons.merge(outcome.failed() ? outcome.cause().toString() : "HTTP " + outcome.result(), 1, Integer::sum);
        }
    }

    /** A request that cannot even be sent counts as a failed one, so that a run always ends. */
    private static Future<Integer> send(Supplier<Future<Integer>> request) {
        try {
            return request.get();
        } catch (RuntimeException e) {
            return Future.failedFuture(e);
        }
    }

    @Override
    public void close() {
        client.close();
    }
}
