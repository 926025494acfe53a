package dev.tickler.testing;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/** Racing clients: one call from each of many threads, released together, as concurrent retries arrive. */
public final class AtOnce {

    /** One caller's call; {@code caller} counts the callers from 0. */
    @FunctionalInterface
    public interface Call<T> {
        T call(int caller) throws Exception;
    }

    private AtOnce() {
    }

    /** Each caller's answer, in caller order, once every caller has one (at most 30 s each). */
    public static <T> List<T> run(int callers, Call<T> call) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(callers);
        CountDownLatch start = new CountDownLatch(1);
        try {
            List<Future<T>> answers = new ArrayList<>();
            for (int i = 0; i < callers; i++) {
                int caller = i;
                answers.add(pool.submit(() -> {
                    start.await();
                    return call.call(caller);
                }));
            }
            start.countDown();
            List<T> results = new ArrayList<>();
            for (Future<T> answer : answers) {
                results.add(answer.get(30, TimeUnit.SECONDS));
            }
            return results;
        } finally {
            pool.shutdownNow();
        }
    }

    /** {@link #run} on a thread of its own, for a test that acts while the calls are under way. */
    public static <T> CompletableFuture<List<T>> start(int callers, Call<T> call) {
        CompletableFuture<List<T>> answers = new CompletableFuture<>();
        Thread caller = new Thread(() -> {
            try {
                answers.complete(run(callers, call));
            } catch (Exception e) {
                answers.completeExceptionally(e);
            }
        }, "at-once");
        caller.setDaemon(true);
        caller.start();
        return answers;
    }
}
