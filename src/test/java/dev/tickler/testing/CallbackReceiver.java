package dev.tickler.testing;

import java.io.IOException;
import java.io.OutputStream;
import java.net.http.HttpHeaders;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;

import com.standardwebhooks.Webhook;
import com.standardwebhooks.exceptions.WebhookVerificationException;
import com.sun.net.httpserver.HttpExchange;

import io.vertx.core.json.JsonObject;

/**
 * A product service's callback endpoint as a real HTTP server on loopback: each tenant's callbacks arrive at
 * /hooks/{tenant}. It records every request as it arrives and answers 204 unless a test scripted other answers for the
 * reminder an event reports (a status, after an optional hold; a hold longer than the application's timeout is a
 * hanging endpoint), so tests never see each other's traffic.
 */
public final class CallbackReceiver implements AutoCloseable {

    /** One scripted answer. */
    public record Reply(int status, Duration hold) {

        public static Reply status(int status) {
            return new Reply(status, Duration.ZERO);
        }

        public static Reply hang(Duration hold) {
            return new Reply(204, hold);
        }
    }

    /** One request as it arrived: its tenant (the path's last part), headers and the body's exact text. */
    public record Received(Instant at, String tenant, HttpHeaders headers, String body) {

        public String webhookId() {
            return headers.firstValue("webhook-id").orElse(null);
        }

        public long timestamp() {
            return Long.parseLong(headers.firstValue("webhook-timestamp").orElseThrow());
        }

        public JsonObject json() {
            return new JsonObject(body);
        }

        /** Checks the signature as a receiver would, with the Standard Webhooks project's Java library. */
        public void verify(String secret) throws WebhookVerificationException {
            new Webhook(secret).verify(body, headers);
        }
    }

    private final LoopbackServer server;
    private final Queue<Received> received = new ConcurrentLinkedQueue<>();
    private final Map<Long, Deque<Reply>> scripts = new ConcurrentHashMap<>();
    private volatile Reply always;

    private CallbackReceiver() {
        server = LoopbackServer.start("/hooks/", this::handle, "callback receiver");
    }

    public static CallbackReceiver start() {
        return new CallbackReceiver();
    }

    public String url(String tenant) {
        return server.url("/hooks/" + tenant);
    }

    /** The next requests for the reminder's events get these answers, in order; after them, 204. */
    public void script(long reminderId, Reply... replies) {
        scripts.computeIfAbsent(reminderId, id -> new ArrayDeque<>()).addAll(List.of(replies));
    }

    /** Every request gets this answer until {@link #answerAsScripted()}. */
    public void answerAlways(Reply reply) {
        always = reply;
    }

    public void answerAsScripted() {
        always = null;
    }

    public List<Received> receivedFor(String tenant) {
        return received.stream().filter(request -> tenant.equals(request.tenant())).toList();
    }

    /** The requests for one reminder's events, as they arrived. */
    public List<Received> receivedForReminder(long reminderId) {
        return received.stream().filter(request -> reminderIdOf(request) == reminderId).toList();
    }

    private static long reminderIdOf(Received request) {
        try {
            return request.json().getJsonObject("data").getLong("id");
        } catch (RuntimeException notAnEvent) {
            return -1;
        }
    }

    @Override
    public void close() {
        server.close();
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            String path = exchange.getRequestURI().getPath();
            String tenant = path.substring(path.lastIndexOf('/') + 1);
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            HttpHeaders headers = HttpHeaders.of(exchange.getRequestHeaders(), (name, value) -> true);
            Received request = new Received(Instant.now(), tenant, headers, body);
            received.add(request);
            Reply reply = nextReply(request);
            if (!reply.hold().isZero()) {
                Thread.sleep(reply.hold().toMillis());
            }
            if (reply.status() == 204) {
                exchange.sendResponseHeaders(204, -1);
                return;
            }
            byte[] answer = "{}".getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(reply.status(), answer.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(answer);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private Reply nextReply(Received request) {
        Reply fixed = always;
        if (fixed != null) {
            return fixed;
        }
        Deque<Reply> script = scripts.get(reminderIdOf(request));
        Reply next = script == null ? null : script.pollFirst();
        return next == null ? Reply.status(204) : next;
    }
}
