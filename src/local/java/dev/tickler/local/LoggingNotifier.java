package dev.tickler.local;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.jboss.logging.Logger;

import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.json.JsonObject;

/**
 * The local notification provider: answers 200 and logs each delivery with how late it came. It runs on a Vert.x
 * instance of its own, which {@link #close} closes.
 */
final class LoggingNotifier implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger("tickler.local.notifier");

    private final Vertx vertx;
    private final HttpServer server;
    private final List<JsonObject> delivered = new CopyOnWriteArrayList<>();

    private LoggingNotifier(Vertx vertx) {
        this.vertx = vertx;
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

    /** Listens on a free loopback port, on a Vert.x instance of its own. */
    static LoggingNotifier start() {
        Vertx vertx = Vertx.vertx();
        try {
            return new LoggingNotifier(vertx);
        } catch (RuntimeException e) {
            vertx.close();
            throw e;
        }
    }

    int port() {
        return server.actualPort();
    }

    /** Stops the server and the Vert.x instance under it. */
    @Override
    public void close() {
        vertx.close().toCompletionStage().toCompletableFuture().join();
    }

    List<JsonObject> delivered() {
        return delivered;
    }
}
