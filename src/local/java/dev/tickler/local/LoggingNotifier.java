package dev.tickler.local;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.jboss.logging.Logger;

import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.json.JsonObject;

/** The local notification provider: answers 200 and logs each delivery with how late it came. */
final class LoggingNotifier {

    private static final Logger LOG = Logger.getLogger("tickler.local.notifier");

    private final HttpServer server;
    private final List<JsonObject> delivered = new CopyOnWriteArrayList<>();

    LoggingNotifier(Vertx vertx) {
        server = vertx.createHttpServer()
                .requestHandler(request -> request.body().onSuccess(body -> {
                    JsonObject notification = body.toJsonObject();
                    delivered.add(notification);
                    Instant fireAt = Instant.parse(notification.getString("fire_at"));
                    LOG.infof("delivered reminder %d to %s: template %s by %s, Idempotency-Key %s, %d ms after fire_at",
                            notification.getLong("reminder_id"), notification.getString("user_id"),
                            notification.getString("template"), notification.getString("channel"),
                            request.getHeader("Idempotency-Key"), Duration.between(fireAt, Instant.now()).toMillis());
                    request.response().putHeader("Content-Type", "application/json").end("{}");
                }))
                .listen(0, "127.0.0.1")
                .toCompletionStage().toCompletableFuture().join();
    }

    int port() {
        return server.actualPort();
    }

    List<JsonObject> delivered() {
        return delivered;
    }
}
