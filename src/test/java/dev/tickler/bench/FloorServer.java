package dev.tickler.bench;

import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;

import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonObject;
import io.vertx.pgclient.PgBuilder;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.PoolOptions;

import dev.tickler.db.UnnestedStatement;
import dev.tickler.ledger.ReminderLedger;

/**
 * The server half of {@link AcknowledgeFloorBenchmarkIT}, started in a JVM of its own: a bare Vert.x server that
 * answers every POST at once ({@code bare PORT}) or after the receiver's claim statement, as a batch of one
 * ({@code claim PORT PG_URL}), 200 when the row was claimed. No Quarkus, no deliveries.
 */
public final class FloorServer {

    private FloorServer() {
    }

    public static void main(String[] args) {
        boolean claim = args[0].equals("claim");
        int port = Integer.parseInt(args[1]);
        Vertx vertx = Vertx.vertx();
        Pool pool = claim ? PgBuilder.pool().with(new PoolOptions().setMaxSize(20)).connectingTo(args[2]).using(vertx).build()
                : null;
        vertx.createHttpServer(new HttpServerOptions().setTcpNoDelay(true))
                .requestHandler(request -> request.body().onSuccess(body -> {
                    if (pool == null) {
                        answer(request, 200);
                        return;
                    }
                    JsonObject message = body.toJsonObject();
                    OffsetDateTime now = OffsetDateTime.now(ZoneOffset.UTC);
                    pool.preparedQuery(ReminderLedger.CLAIM)
                            .execute(UnnestedStatement.arraysOf(List.of(io.vertx.mutiny.sqlclient.Tuple.of(
                                    message.getLong("reminder_id"), message.getInteger("version"), now.plusMinutes(5),
                                    now, "push", now.plusSeconds(30)).addValue(null)), ReminderLedger.CLAIM_COLUMNS)
                                    .getDelegate())
                            .onComplete(rows -> answer(request, rows.succeeded() && rows.result().size() == 1 ? 200 : 409));
                }))
                .listen(port, "127.0.0.1").toCompletionStage().toCompletableFuture().join();
        System.out.println("listening on " + port);
    }

    private static void answer(HttpServerRequest request, int status) {
        request.response().setStatusCode(status).putHeader("Content-Type", "application/json").end("{}");
    }
}
