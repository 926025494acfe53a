package dev.tickler.emulator;

import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/** A push subscriber endpoint on 127.0.0.1 that records what it receives and answers as scripted (200 by default). */
final class PushReceiver implements AutoCloseable {

    record ReceivedPush(byte[] body, Headers headers, long receivedAtMillis) {

        JsonObject json() {
            return new JsonObject(Buffer.buffer(body));
        }

        String header(String name) {
            return headers.getFirst(name);
        }
    }

    private static final long LONGEST_HOLD_SECONDS = 30;

    private final HttpServer server;
    private final ExecutorService executor = Executors.newCachedThreadPool();
    private final List<ReceivedPush> received = new CopyOnWriteArrayList<>();
    private final Queue<Integer> scriptedStatuses = new ConcurrentLinkedQueue<>();
    private final AtomicInteger requestsToHold = new AtomicInteger();
    private final CountDownLatch heldRequestsRelease = new CountDownLatch(1);
    private final AtomicInteger requestsInProgress = new AtomicInteger();
    private final AtomicInteger mostRequestsInProgress = new AtomicInteger();

    private PushReceiver() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/push", this::handle);
        server.setExecutor(executor);
        server.start();
    }

    static PushReceiver start() throws IOException {
        return new PushReceiver();
    }

    String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/push";
    }

    /** The next requests are answered with these statuses, in order. */
    void answerNext(int... statuses) {
        for (int status : statuses) {
            scriptedStatuses.add(status);
        }
    }

    /** The next {@code count} requests get no answer until {@link #releaseHeldRequests()} or {@link #close()}. */
    void holdNext(int count) {
        requestsToHold.set(count);
    }

    void releaseHeldRequests() {
        heldRequestsRelease.countDown();
    }

    List<ReceivedPush> received() {
        return received;
    }

    int mostRequestsInProgress() {
        return mostRequestsInProgress.get();
    }

    @Override
    public void close() {
        heldRequestsRelease.countDown();
        server.stop(0);
        executor.shutdownNow();
    }

    private void handle(HttpExchange exchange) throws IOException {
        int status;
        mostRequestsInProgress.accumulateAndGet(requestsInProgress.incrementAndGet(), Math::max);
        try {
            Headers headers = new Headers();
            headers.putAll(exchange.getRequestHeaders());
            received.add(new ReceivedPush(exchange.getRequestBody().readAllBytes(), headers, System.currentTimeMillis()));
            if (requestsToHold.getAndUpdate(count -> Math.max(0, count - 1)) > 0) {
                heldRequestsRelease.await(LONGEST_HOLD_SECONDS, TimeUnit.SECONDS);
            }
            Integer scripted = scriptedStatuses.poll();
            status = scripted == null ? 200 : scripted;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        } finally {
            // before answering: the emulator may start its next push as soon as it has the answer
            requestsInProgress.decrementAndGet();
        }
        exchange.sendResponseHeaders(status, -1);
        exchange.close();
    }
}
