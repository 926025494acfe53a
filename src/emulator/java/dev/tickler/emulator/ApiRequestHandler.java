package dev.tickler.emulator;

import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.math.BigInteger;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicLong;

/** The Infrai HTTP API: authentication, routing, validation and the {@code ok}/{@code data}/{@code error} envelope. */
final class ApiRequestHandler implements Handler<HttpServerRequest> {

    private static final String PUBLISH_PATH = "/v1/queue/publish";
    private static final String CONSUME_PATH = "/v1/queue/consume";
    private static final String ACK_PATH = "/v1/queue/ack";
    private static final String NACK_PATH = "/v1/queue/nack";
    private static final String SUBSCRIBE_PATH_PREFIX = "/v1/queue/push_subscribe/";
    private static final String STATS_PATH_PREFIX = "/v1/queue/stats/";
    private static final String USAGE_PATH = "/v1/account/usage";
    private static final long MAX_DELAY_SECONDS = 604_800;
    private static final int MAX_CONSUMED_MESSAGES = 10;
    private static final double CREDIT = 1000.0;
    private static final String NOT_A_JSON_OBJECT = "request body must be a JSON object";

    private record Reply(int status, JsonObject envelope, Integer retryAfterSeconds) {

        static Reply ok(JsonObject data) {
            return new Reply(200, new JsonObject().put("ok", true).put("data", data), null);
        }

        static Reply error(ApiError error) {
            JsonObject details = new JsonObject().put("code", error.code()).put("message", error.message());
            return new Reply(error.status(), new JsonObject().put("ok", false).put("error", details), error.retryAfterSeconds());
        }
    }

    private final Vertx vertx;
    private final QueueBroker broker;
    private final PublishFaults publishFaults;
    private final String expectedAuthorization;
    private final Runnable onMessagesReady;
    private final AtomicLong requests = new AtomicLong();
    private final AtomicLong publishRequests = new AtomicLong();
    private final AtomicLong publishes = new AtomicLong();

    /** {@code onMessagesReady} runs after a call that may have made messages ready to push. */
    ApiRequestHandler(Vertx vertx, QueueBroker broker, PublishFaults publishFaults, String apiKey, Runnable onMessagesReady) {
        this.vertx = vertx;
        this.broker = broker;
        this.publishFaults = publishFaults;
        this.expectedAuthorization = apiKey == null ? null : "Bearer " + apiKey;
        this.onMessagesReady = onMessagesReady;
    }

    @Override
    public void handle(HttpServerRequest request) {
        requests.incrementAndGet();
        boolean isPublish = request.method() == HttpMethod.POST && PUBLISH_PATH.equals(request.path());
        if (isPublish) {
            publishRequests.incrementAndGet();
        }
        request.body().onSuccess(body -> {
            Reply reply = answer(request, body);
            long latencyMillis = isPublish ? publishFaults.latency().toMillis() : 0;
            if (latencyMillis > 0) {
                vertx.setTimer(latencyMillis, timerId -> send(request, reply));
            } else {
                send(request, reply);
            }
        });
    }

    long requests() {
        return requests.get();
    }

    long publishRequests() {
        return publishRequests.get();
    }

    void resetCounters() {
        requests.set(0);
        publishRequests.set(0);
        publishes.set(0);
    }

    private Reply answer(HttpServerRequest request, Buffer body) {
        try {
            authorize(request);
            return Reply.ok(route(request.method(), request.path(), body));
        } catch (ApiException e) {
            return Reply.error(e.error());
        } catch (RuntimeException e) {
            return Reply.error(ApiError.internal(e.toString()));
        }
    }

    private void authorize(HttpServerRequest request) {
        if (expectedAuthorization != null && !expectedAuthorization.equals(request.getHeader(HttpHeaders.AUTHORIZATION))) {
            throw new ApiException(ApiError.unauthorized());
        }
    }

    private JsonObject route(HttpMethod method, String path, Buffer body) {
        if (method == HttpMethod.POST && path.startsWith(SUBSCRIBE_PATH_PREFIX)) {
            return subscribe(queueFromPath(path, SUBSCRIBE_PATH_PREFIX), jsonObject(body));
        }
        if (method == HttpMethod.GET && path.startsWith(STATS_PATH_PREFIX)) {
            return broker.stats(queueFromPath(path, STATS_PATH_PREFIX)).toJson();
        }
        String endpoint = method + " " + path;
        return switch (endpoint) {
            case "POST " + PUBLISH_PATH -> publish(body);
            case "POST " + CONSUME_PATH -> consume(jsonObject(body));
            case "POST " + ACK_PATH -> ack(jsonObject(body));
            case "POST " + NACK_PATH -> nack(jsonObject(body));
            case "GET " + USAGE_PATH -> usage();
            default -> throw new ApiException(ApiError.notFound("no endpoint " + endpoint));
        };
    }

    private JsonObject publish(Buffer body) {
        ApiError injectedError = publishFaults.takeNextError();
        if (injectedError != null) {
            throw new ApiException(injectedError);
        }
        JsonObject request = jsonObject(body);
        String queue = requiredString(request, "queue");
        JsonObject messageBody = requiredObject(request, "body");
        long delaySeconds = integerInRange(request, "delay_seconds", 0, 0, MAX_DELAY_SECONDS);
        String idempotencyKey = optionalString(request, "idempotency_key");
        String messageId = broker.publish(queue, messageBody, delaySeconds, idempotencyKey);
        publishes.incrementAndGet();
        onMessagesReady.run();
        return new JsonObject().put("message_id", messageId);
    }

    private JsonObject consume(JsonObject request) {
        String queue = requiredString(request, "queue");
        int maxMessages = (int) integerInRange(request, "max_messages", 1, 1, MAX_CONSUMED_MESSAGES);
        JsonArray items = new JsonArray();
        broker.consume(queue, maxMessages).forEach(delivery -> items.add(delivery.toConsumedItem()));
        return new JsonObject().put("items", items);
    }

    private JsonObject ack(JsonObject request) {
        String queue = requiredString(request, "queue");
        String receiptHandle = requiredString(request, "receipt_handle");
        if (!broker.ack(queue, receiptHandle)) {
            throw new ApiException(ApiError.notInFlight(receiptHandle));
        }
        return new JsonObject();
    }

    private JsonObject nack(JsonObject request) {
        String queue = requiredString(request, "queue");
        String messageId = requiredString(request, "message_id");
        if (!broker.nack(queue, messageId)) {
            throw new ApiException(ApiError.notInFlight(messageId));
        }
        onMessagesReady.run();
        return new JsonObject();
    }

    private JsonObject subscribe(String queue, JsonObject request) {
        Object queueInBody = request.getValue("queue");
        if (queueInBody != null && !queue.equals(queueInBody)) {
            throw invalid("queue in the body does not match the queue in the path");
        }
        String url = requiredString(request, "url");
        String secret = optionalString(request, "secret");
        Subscription subscription = broker.subscribe(queue, url, secret);
        onMessagesReady.run();
        return subscription.toJson();
    }

    private JsonObject usage() {
        return new JsonObject()
                .put("requests", requests.get())
                .put("publishes", publishes.get())
                .put("credit", CREDIT);
    }

    private static void send(HttpServerRequest request, Reply reply) {
        if (request.response().closed()) {
            return; // the client stopped waiting, e.g. during an injected publish latency
        }
        HttpServerResponse response = request.response()
                .setStatusCode(reply.status())
                .putHeader(HttpHeaders.CONTENT_TYPE, "application/json");
        if (reply.retryAfterSeconds() != null) {
            response.putHeader("Retry-After", reply.retryAfterSeconds().toString());
        }
        response.end(reply.envelope().toBuffer());
    }

    private static String queueFromPath(String path, String prefix) {
        String segment = path.substring(prefix.length());
        if (segment.isEmpty() || segment.contains("/")) {
            throw new ApiException(ApiError.notFound("no endpoint for path " + path));
        }
        try {
            // URLDecoder decodes forms, where '+' is a space; in a path it is a plus sign
            return URLDecoder.decode(segment.replace("+", "%2B"), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            throw invalid("queue name in the path is not validly percent-encoded");
        }
    }

    private static JsonObject jsonObject(Buffer body) {
        JsonObject json;
        try {
            json = new JsonObject(body);
        } catch (DecodeException e) {
            throw invalid(NOT_A_JSON_OBJECT);
        }
        // a body of JSON null decodes to an object without a map
        if (json.getMap() == null) {
            throw invalid(NOT_A_JSON_OBJECT);
        }
        return json;
    }

    private static String requiredString(JsonObject json, String field) {
        if (json.getValue(field) instanceof String value && !value.isBlank()) {
            return value;
        }
        throw invalid(field + " is required and must be a non-empty string");
    }

    private static String optionalString(JsonObject json, String field) {
        Object value = json.getValue(field);
        if (value == null || value instanceof String) {
            return (String) value;
        }
        throw invalid(field + " must be a string");
    }

    private static JsonObject requiredObject(JsonObject json, String field) {
        if (json.getValue(field) instanceof JsonObject value) {
            return value;
        }
        throw invalid(field + " is required and must be a JSON object");
    }

    private static long integerInRange(JsonObject json, String field, long defaultValue, long min, long max) {
        Object value = json.getValue(field);
        if (value == null) {
            return defaultValue;
        }
        if (!(value instanceof Integer || value instanceof Long || value instanceof BigInteger)) {
            throw invalid(field + " must be an integer");
        }
        Number number = (Number) value;
        if (value instanceof BigInteger || number.longValue() < min || number.longValue() > max) {
            throw invalid(field + " must be between " + min + " and " + max);
        }
        return number.longValue();
    }

    private static ApiException invalid(String message) {
        return new ApiException(ApiError.invalidRequest(message));
    }
}
