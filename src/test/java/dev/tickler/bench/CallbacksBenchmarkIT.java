package dev.tickler.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusIntegrationTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.RestAssured;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import io.vertx.pgclient.PgBuilder;

import dev.tickler.testing.PostgresResource;

/**
 * What delivery callbacks cost (docs/api.md, "Delivery callbacks": what they cost). One packaged application, two
 * tenants: the pushes of one whose tenant has a callback URL (every send also writes an outbox event, which the
 * dispatcher POSTs, signed, to {@link FastCallbackEndpoint} while the sends go on) and of one without (the statements
 * are the same less the outbox insert, and nothing is dispatched). After warm-up rounds of both, pairs of rounds of
 * saturating pushes, one of each, alternate in both orders against a notifier that answers at once; each round counts
 * how fast its reminders were acknowledged and sent, and each pair gives the ratio of the two, so that a machine whose
 * load drifts (two shared cores) compares like with like. Then every outbox event written is made due at one instant, and the endpoint counts how fast
 * they arrive. Prints its figures; run with {@code mvn -Pbenchmark verify -Dit.test=CallbacksBenchmarkIT -Dtest=none
 * -Dsurefire.failIfNoSpecifiedTests=false}.
 */
@QuarkusIntegrationTest
@Tag("benchmark")
@TestProfile(CallbacksBenchmarkIT.TwoTenants.class)
class CallbacksBenchmarkIT {

    private static final String HOOKED_KEY = "hooked-benchmark-key-5d0c2a91";
    private static final String QUIET_KEY = "quiet-benchmark-key-7e31b4c8";
    private static final String QUIET = "quiet";
    /**
     * Every round pushes this many, a fixed amount of work so that rounds at any speed compare, and enough that the
     * dispatcher is busy through most of a round with callbacks (it sends fewer a second than the pushes come in).
     */
    private static final int ROUND_PUSHES = 30_000;
    private static final Duration ROUND_LIMIT = Duration.ofMinutes(2);
    private static final int WARM_UP_ROUNDS = 2;
    /** The newest events made due together for the dispatcher's own figure. */
    private static final int DRAINED_EVENTS = 50_000;
    private static final int PAIRS = 6;
    private static final int CONCURRENCY = 64;
    private static final int ROWS_PER_TENANT = (WARM_UP_ROUNDS + PAIRS) * ROUND_PUSHES + 1_000;

    /** Production settings, a key of each tenant, and the callback URL of {@value FastCallbackEndpoint#TENANT}. */
    public static class TwoTenants extends ProductionLikeProfile {
        @Override
        public List<TestResourceEntry> testResources() {
            List<TestResourceEntry> resources = new ArrayList<>(super.testResources());
            resources.add(new TestResourceEntry(FastCallbackEndpoint.class));
            return resources;
        }

        @Override
        public Map<String, String> getConfigOverrides() {
            Map<String, String> config = new HashMap<>(super.getConfigOverrides());
            config.put("tickler.api.keys", FastCallbackEndpoint.TENANT + "=" + HOOKED_KEY + "," + QUIET + "="
                    + QUIET_KEY);
            config.put("tickler.delivery.max-backlog", "1000000");
            return config;
        }
    }

    private Pool pool;
    private LoadGenerator load;

    /** One round of one tenant: pushes acknowledged, and reminders sent per second from its first push. */
    private record Round(boolean callbacks, int pushes, double ackedPerSecond, double sentPerSecond,
            long callbacksByLastSend) {
    }

    @Test
    void reminderThroughputWithCallbacksBesideWithoutAndCallbacksPerSecond() throws Exception {
        Vertx vertx = Vertx.vertx();
        pool = Pool.newInstance(PgBuilder.pool().connectingTo(PostgresResource.reactiveUrl()).using(vertx).build());
        load = new LoadGenerator(vertx);
        try {
            SeededRows hooked = SeededRows.due(pool, ROWS_PER_TENANT, FastCallbackEndpoint.TENANT);
            SeededRows quiet = SeededRows.due(pool, ROWS_PER_TENANT, QUIET);
            // the JIT compiles both paths before anything is counted
            for (int i = 0; i < WARM_UP_ROUNDS; i++) {
                for (SeededRows rows : List.of(hooked, quiet)) {
                    LoadGenerator.Result warmUp = pushRound(rows);
                    assertThat(warmUp.failures()).as("warm-up failures: %s", load.failureReasons()).isZero();
                }
            }
            awaitSettled();

            List<Round[]> pairs = new ArrayList<>();
            for (int pair = 0; pair < PAIRS; pair++) {
                // both orders in turn, so that a drift of the machine over the run favours neither side
                boolean hookedFirst = pair % 2 == 1;
                Round first = round(hookedFirst ? hooked : quiet, hookedFirst);
                Round second = round(hookedFirst ? quiet : hooked, !hookedFirst);
                pairs.add(hookedFirst ? new Round[] { first, second } : new Round[] { second, first });
            }
            System.out.println("callbacks benchmark: saturating pushes (" + CONCURRENCY + " in flight, "
                    + ROUND_PUSHES + " a round), a notifier and a callback endpoint that answer at once");
            System.out.printf("  %-5s %-14s %8s %10s %10s %22s%n", "pair", "round", "pushes", "acked/s", "sent/s",
                    "callbacks by last send");
            List<Double> ratios = new ArrayList<>();
            for (int pair = 0; pair < pairs.size(); pair++) {
                for (Round round : pairs.get(pair)) {
                    System.out.printf("  %-5d %-14s %8d %10.0f %10.0f %22s%n", pair + 1,
                            round.callbacks() ? "callbacks on" : "callbacks off", round.pushes(),
                            round.ackedPerSecond(), round.sentPerSecond(),
                            round.callbacks() ? Long.toString(round.callbacksByLastSend()) : "-");
                }
                ratios.add(pairs.get(pair)[0].sentPerSecond() / pairs.get(pair)[1].sentPerSecond());
            }
            List<Round> rounds = pairs.stream().flatMap(Arrays::stream).toList();
            summarize(rounds, true);
            summarize(rounds, false);
            List<Double> sorted = ratios.stream().sorted().toList();
            System.out.printf("  sent/s with callbacks against without, pair by pair: median %.3f, range %.3f–%.3f%n",
                    (sorted.get((sorted.size() - 1) / 2) + sorted.get(sorted.size() / 2)) / 2, sorted.get(0),
                    sorted.get(sorted.size() - 1));

            drainAtOnce();
        } finally {
            load.close();
            vertx.close().toCompletionStage().toCompletableFuture().join();
        }
    }

    /** Saturating pushes of one tenant's rows for one run, then until every pushed reminder is sent. */
    private Round round(SeededRows rows, boolean callbacks) throws Exception {
        long firstId = rows.nextId();
        long deliveredBefore = FastCallbackEndpoint.received.get();
        Instant started = Instant.now();
        LoadGenerator.Result result = pushRound(rows);
        assertThat(result.failures()).isZero();
        long lastId = rows.nextId();
        await().atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(100)).until(() -> count(
                "SELECT count(*) FROM reminders WHERE id >= $1 AND id < $2 AND state = 'sent'", firstId, lastId)
                == lastId - firstId);
        long deliveredByLastSend = FastCallbackEndpoint.received.get() - deliveredBefore;
        double sendSeconds = pool.preparedQuery("SELECT extract(epoch FROM max(sent_at) - $3) FROM reminders"
                        + " WHERE id >= $1 AND id < $2")
                .execute(Tuple.of(firstId, lastId, started.atOffset(ZoneOffset.UTC))).await().indefinitely()
                .iterator().next().getDouble(0);
        awaitSettled();
        return new Round(callbacks, (int) (lastId - firstId), result.latencies().length / result.elapsedSeconds(),
                (lastId - firstId) / sendSeconds, callbacks ? Math.min(deliveredByLastSend, lastId - firstId) : 0);
    }

    /** {@value #ROUND_PUSHES} pushes of the rows, {@value #CONCURRENCY} in flight. */
    private LoadGenerator.Result pushRound(SeededRows rows) throws Exception {
        // the loop stops once fewer than its concurrency are left of its maximum
        return load.closedLoop(CONCURRENCY, ROUND_LIMIT, ROUND_PUSHES + CONCURRENCY, () -> push(rows));
    }

    private static void summarize(List<Round> rounds, boolean callbacks) {
        List<Round> side = rounds.stream().filter(round -> round.callbacks() == callbacks).toList();
        System.out.printf("  callbacks %-4s sent/s %.0f–%.0f (mean %.0f), acked/s %.0f–%.0f%n",
                callbacks ? "on" : "off", side.stream().mapToDouble(Round::sentPerSecond).min().orElse(0),
                side.stream().mapToDouble(Round::sentPerSecond).max().orElse(0),
                side.stream().mapToDouble(Round::sentPerSecond).average().orElse(0),
                side.stream().mapToDouble(Round::ackedPerSecond).min().orElse(0),
                side.stream().mapToDouble(Round::ackedPerSecond).max().orElse(0));
    }

    /** Every event written so far due again at one instant: how fast the dispatcher delivers them all. */
    private void drainAtOnce() {
        FastCallbackEndpoint.reset();
        long events = pool.preparedQuery("UPDATE callback_events SET delivered_at = NULL, attempts = 0,"
                + " last_status = NULL, tried_since = now(), next_attempt_at = now() + interval '3 seconds'"
                + " WHERE id > (SELECT max(id) FROM callback_events) - $1").execute(Tuple.of(DRAINED_EVENTS))
                .await().indefinitely().rowCount();
        await().atMost(Duration.ofMinutes(10)).pollInterval(Duration.ofMillis(200))
                .until(() -> count("SELECT count(*) FROM callback_events WHERE delivered_at IS NULL") == 0);
        System.out.printf("  callbacks due at one instant: %d delivered at %.0f/s (first to last arrival), %d"
                + " requests%n", events, FastCallbackEndpoint.perSecond(), FastCallbackEndpoint.received.get());
    }

    /** No reminder held and no callback undelivered: the next round starts from rest. */
    private void awaitSettled() {
        await().atMost(Duration.ofMinutes(5)).pollInterval(Duration.ofMillis(200)).until(() -> count(
                "SELECT count(*) FROM reminders WHERE state = 'delivering'") == 0
                && count("SELECT count(*) FROM callback_events WHERE delivered_at IS NULL") == 0);
    }

    private long count(String sql, Object... parameters) {
        return pool.preparedQuery(sql).execute(Tuple.from(parameters)).await().indefinitely().iterator().next()
                .getLong(0);
    }

    private Future<Integer> push(SeededRows rows) {
        return load.post(RestAssured.port, "/q/" + ProductionLikeProfile.PUSH_TOKEN + "/reminders", rows.nextMessage());
    }
}
