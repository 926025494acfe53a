package dev.tickler.testing;

import java.io.IOException;
import java.io.OutputStream;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import com.sun.net.httpserver.HttpExchange;

import io.vertx.core.json.JsonObject;

/**
 * The notification provider as a real HTTP server on loopback. It records every request as it arrives and every
 * answer once it is written, and answers 200 unless a test scripted other answers for a user; scripts are per user so
 * tests never see each other's traffic.
 */
public final class NotifierStandIn implements AutoCloseable {

    /**
     * One scripted answer: a status, an optional Retry-After (the header as sent), how long to wait before answering,
     * and, when not null, a latch the answer also waits for (at most a minute), so a test decides when it comes.
     */
    public record Reply(int status, String retryAfter, Duration hold, CountDownLatch release) {

        public static Reply status(int status) {
            return new Reply(status, null, Duration.ZERO, null);
        }

        public static Reply rateLimited(long retryAfterSeconds) {
            return rateLimited(Long.toString(retryAfterSeconds));
        }

        /** A 429 whose Retry-After is this text, however large or malformed. */
        public static Reply rateLimited(String retryAfter) {
            return new Reply(429, retryAfter, Duration.ZERO, null);
        }

        public static Reply okAfter(Duration hold) {
            return new Reply(200, null, hold, null);
        }

        /** 200 once the test counts this latch down: no fixed hold a loaded machine could outlast. */
        public static Reply okWhenReleased(CountDownLatch release) {
            return new Reply(200, null, Duration.ZERO, release);
        }
    }

    /** One request; traceparent is its W3C trace header, null when none was sent. */
    public record Received(Instant at, String idempotencyKey, String traceparent, JsonObject body) {

        public String userId() {
            return body.getString("user_id");
        }
    }

    /** An answer written in full to the caller: the request it answers, its status, and when it was done. */
    public record Answered(Received request, int status, Instant at) {
    }

    private final LoopbackServer server;
    private final Queue<Received> received = new ConcurrentLinkedQueue<>();
    private final Queue<Answered> answered = new ConcurrentLinkedQueue<>();
    private final Map<String, Deque<Reply>> scripts = new ConcurrentHashMap<>();

    private NotifierStandIn() {
        server = LoopbackServer.start("/notify", this::handle, "notifier stand-in");
    }

    public static NotifierStandIn start() {
        return new NotifierStandIn();
    }

    public String url() {
        return server.url("/notify");
    }

    /** The next requests for this user get these answers, in order; after them, 200. */
    public void script(String userId, Reply... replies) {
        scripts.computeIfAbsent(userId, user -> new ArrayDeque<>()).addAll(List.of(replies));
    }

    /** The requests for this user, as they arrived (before any scripted pause). */
    public List<Received> receivedFor(String userId) {
        return received.stream().filter(request -> userId.equals(request.userId())).toList();
    }

    /** The answers to this user's requests that were written to the caller, in the order they were finished. */
    public List<Answered> answeredFor(String userId) {
        return answered.stream().filter(answer -> userId.equals(answer.request().userId())).toList();
    }

    @Override
    public void close() {
        server.close();
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            JsonObject body = new JsonObject(new String(exchange.getRequestBody().readAllBytes()));
            Received request = new Received(Instant.now(), exchange.getRequestHeaders().getFirst("Idempotency-Key"),
                    exchange.getRequestHeaders().getFirst("traceparent"), body);
            received.add(request);
            Reply reply = nextReply(body.getString("user_id"));
            if (!reply.hold().isZero()) {
                Thread.sleep(reply.hold().toMillis());
            }
            if (reply.release() != null && !reply.release().await(1, TimeUnit.MINUTES)) {
                throw new IllegalStateException("a held reply was never released");
            }
            if (reply.retryAfter() != null) {
                exchange.getResponseHeaders().add("Retry-After", reply.retryAfter());
            }
            byte[] answer = "{}".getBytes();
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(reply.status(), answer.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(answer);
            }
            answered.add(new Answered(request, reply.status(), Instant.now()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private Reply nextReply(String userId) {
        Deque<Reply> script = userId == null ? null : scripts.get(userId);
        Reply next = script == null ? null : script.pollFirst();
        return next == null ? Reply.status(200) : next;
    }
}
