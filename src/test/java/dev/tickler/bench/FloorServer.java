package dev.tickler.bench;

import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.function.Function;

import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonObject;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import io.vertx.pgclient.PgBuilder;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.sqlclient.PoolOptions;

import dev.tickler.db.UnnestedStatement;
import dev.tickler.ledger.ReminderLedger;

/**
 * The server half of {@link AcknowledgeFloorBenchmarkIT}, started in a JVM of its own: a bare Vert.x server that
 * answers every POST at once ({@code bare PORT}) or after the receiver's claim statement, as a batch of one run as the
 * application runs it (statements kept prepared, the generic plan; {@code claim PORT PG_URL}), 200 when the row was
 * claimed. No Quarkus, no deliveries.
 */
public final class FloorServer {

    private FloorServer() {
    }

    public static void main(String[] args) {
        int port = Integer.parseInt(args[1]);
        Vertx vertx = Vertx.vertx();
        Function<List<Tuple>, Uni<List<Boolean>>> claims = args[0].equals("claim")
                ? UnnestedStatement.of(Pool.newInstance(PgBuilder.pool().with(new PoolOptions().setMaxSize(20))
                        .connectingTo(PgConnectOptions.fromUri(args[2]).setCachePreparedStatements(true)).using(vertx)
                        .build()), ReminderLedger.CLAIM, ReminderLedger.CLAIM_COLUMNS, row -> true, false)
                : null;
        vertx.createHttpServer(new HttpServerOptions().setTcpNoDelay(true))
                .requestHandler(request -> request.body().onSuccess(body -> {
                    if (claims == null) {
                        answer(request, 200);
                        return;
                    }
                    JsonObject message = body.toJsonObject();
                    OffsetDateTime now = OffsetDateTime.now(ZoneOffset.UTC);
                    claims.apply(List.of(Tuple.of(message.getLong("reminder_id"), message.getInteger("version"),
                                    now.plusMinutes(5), now, "push", now.plusSeconds(30)).addValue(null)))
                            .subscribe().with(claimed -> answer(request, claimed.get(0) ? 200 : 409),
                                    failure -> answer(request, 500));
                }))
                .listen(port, "127.0.0.1").toCompletionStage().toCompletableFuture().join();
        System.out.println("listening on " + port);
    }

    private static void answer(HttpServerRequest request, int status) {
        request.response().setStatusCode(status).putHeader("Content-Type", "application/json").end("{}");
    }
}
