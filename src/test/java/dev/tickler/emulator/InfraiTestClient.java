package dev.tickler.emulator;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

/** Calls the emulator's HTTP API the way a client of Infrai does. */
final class InfraiTestClient {

    record Reply(int status, JsonObject json, HttpHeaders headers) {

        JsonObject data() {
            return json.getJsonObject("data");
        }

        String errorCode() {
            return json.getJsonObject("error").getString("code");
        }

        String errorMessage() {
            return json.getJsonObject("error").getString("message");
        }

        String header(String name) {
            return headers.firstValue(name).orElse(null);
        }
    }

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private final String baseUrl;
    private final String apiKey;

    /** {@code apiKey} may be {@code null} to send no Authorization header. */
    InfraiTestClient(String baseUrl, String apiKey) {
        this.baseUrl = baseUrl;
        this.apiKey = apiKey;
    }

    InfraiTestClient(InfraiEmulator emulator) {
        this(emulator.baseUrl(), null);
    }

    Reply post(String path, JsonObject body) {
        return postRaw(path, body.encode());
    }

    Reply postRaw(String path, String body) {
        return send(request(path).POST(HttpRequest.BodyPublishers.ofString(body)));
    }

    Reply get(String path) {
        return send(request(path).GET());
    }

    Reply publishReply(String queue, JsonObject body, long delaySeconds, String idempotencyKey) {
        JsonObject request = new JsonObject().put("queue", queue).put("body", body).put("delay_seconds", delaySeconds);
        if (idempotencyKey != null) {
            request.put("idempotency_key", idempotencyKey);
        }
        return post("/v1/queue/publish", request);
    }

    /** Publishes and returns the message id, failing the test unless the call succeeds. */
    String publish(String queue, JsonObject body, long delaySeconds, String idempotencyKey) {
        Reply reply = publishReply(queue, body, delaySeconds, idempotencyKey);
        assertEquals(200, reply.status(), reply.json()::encode);
        return reply.data().getString("message_id");
    }

    JsonArray consume(String queue, int maxMessages) {
        Reply reply = post("/v1/queue/consume", new JsonObject().put("queue", queue).put("max_messages", maxMessages));
        assertEquals(200, reply.status(), reply.json()::encode);
        return reply.data().getJsonArray("items");
    }

    Reply ack(String queue, String receiptHandle) {
        return post("/v1/queue/ack", new JsonObject().put("queue", queue).put("receipt_handle", receiptHandle));
    }

    Reply nack(String queue, String messageId) {
        return post("/v1/queue/nack", new JsonObject().put("queue", queue).put("message_id", messageId));
    }

    Reply subscribe(String queue, String url, String secret) {
        JsonObject request = new JsonObject().put("queue", queue).put("url", url);
        if (secret != null) {
            request.put("secret", secret);
        }
        return post("/v1/queue/push_subscribe/" + queue, request);
    }

    JsonObject stats(String queue) {
        Reply reply = get("/v1/queue/stats/" + queue);
        assertEquals(200, reply.status(), reply.json()::encode);
        return reply.data();
    }

    private HttpRequest.Builder request(String path) {
        HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create(baseUrl + path))
                .header("Content-Type", "application/json");
        if (apiKey != null) {
            builder.header("Authorization", "Bearer " + apiKey);
        }
        return builder;
    }

    private Reply send(HttpRequest.Builder request) {
        try {
            HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
            return new Reply(response.statusCode(), new JsonObject(response.body()), response.headers());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
