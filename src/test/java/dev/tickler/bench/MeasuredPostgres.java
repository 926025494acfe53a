package dev.tickler.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Map;

import javax.sql.DataSource;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;

import dev.tickler.testing.Schema;

/**
 * A PostgreSQL server of the benchmark's own, with {@code pg_stat_statements} loaded (planning counted too: a statement
 * planned afresh at every call would spend its time outside its execution) and autovacuum on, its schema
 * migrated and its tables filled as a deployment's would be after a while ({@link #seed}): finished reminders with
 * their timelines, reminders handed off for the coming days and reminders parked beyond the hand-off window. The
 * finished ones were last changed over the retention period the application is given here, one every
 * {@code 1/rate} s, so that retention deletes as many old reminders as the benchmark's traffic finishes and the table
 * stays the same size while it runs.
 *
 * <p>Settings a deployment would set for a table this size: 1 GB of shared buffers, checkpoints far apart. Commits
 * are not synchronous (the embedded server's default): the figures are CPU, not the disk's flush latency.
 */
public class MeasuredPostgres implements QuarkusTestResourceLifecycleManager {

    /** Rows in reminders before the traffic starts: {@code -Dbench.rows}, 100,000 unless given. */
    static final int ROWS = Integer.getInteger("bench.rows", 100_000);
    /** Registrations per second of the steady traffic: {@code -Dbench.rate}. */
    static final int RATE = Integer.getInteger("bench.rate", 300);

    private static final double FINISHED_SHARE = 0.7;
    private static final double HANDED_OFF_SHARE = 0.2;

    private static volatile EmbeddedPostgres server;
    private static volatile String reactiveUrl;

    static String reactiveUrl() {
        return reactiveUrl;
    }

    static DataSource database() {
        return server.getDatabase("postgres", "tickler");
    }

    @Override
    public Map<String, String> start() {
        try {
            server = EmbeddedPostgres.builder()
                    .setServerConfig("shared_preload_libraries", "pg_stat_statements")
                    .setServerConfig("pg_stat_statements.max", "1000")
                    .setServerConfig("pg_stat_statements.track_planning", "on")
                    .setServerConfig("shared_buffers", "1GB")
                    .setServerConfig("max_wal_size", "8GB")
                    .setServerConfig("autovacuum", "on")
                    .setPGStartupWait(Duration.ofMinutes(1))
                    .start();
        } catch (IOException e) {
            throw new UncheckedIOException("embedded PostgreSQL did not start", e);
        }
        execute(server.getPostgresDatabase(), "CREATE DATABASE tickler");
        Schema.migrate(database());
        execute(database(), "CREATE EXTENSION pg_stat_statements");
        long started = System.nanoTime();
        seed(database());
        System.out.printf("seeded %,d reminders in %d s%n", ROWS, (System.nanoTime() - started) / 1_000_000_000L);
        String address = "127.0.0.1:" + server.getPort() + "/tickler";
        reactiveUrl = "postgresql://postgres:postgres@" + address;
        return Map.of(
                "quarkus.datasource.reactive.url", "postgresql://" + address,
                "quarkus.datasource.username", "postgres",
                "quarkus.datasource.password", "postgres",
                "tickler.retention.finished", retention().toString());
    }

    /** The keep-time after which the seeded finished reminders fall due for deletion at the traffic's own rate. */
    static Duration retention() {
        return Duration.ofSeconds(Math.max(60, finishedRows() / RATE));
    }

    private static long finishedRows() {
        return (long) (ROWS * FINISHED_SHARE);
    }

    private static void seed(DataSource database) {
        long finished = finishedRows();
        long handedOff = (long) (ROWS * HANDED_OFF_SHARE);
        long parked = ROWS - finished - handedOff;
        long keepSeconds = retention().toSeconds();
        // finished: one changed every 1/RATE s over the last keep-time, the oldest first, with their four events
        execute(database, "INSERT INTO reminders (user_id, channel, template, fire_at, data, state, attempts, message_id,"
                + " created_at, updated_at, sent_at, claimed_at)"
                + " SELECT 'seed-' || g, 'push', 'seeded', t - interval '1 second', '{\"plan\":\"pro\"}', 'sent', 1,"
                + " 'msg-' || g, t - interval '1 hour', t, t, t FROM generate_series(1, " + finished + ") g,"
                + " LATERAL (SELECT now() - make_interval(secs => " + keepSeconds + " - g::float8 / " + RATE + ")) AS s(t)");
        // handed off: due over the next days, never within the run
        execute(database, "INSERT INTO reminders (user_id, channel, template, fire_at, data, state, message_id,"
                + " created_at, updated_at)"
                + " SELECT 'ahead-' || g, 'push', 'seeded', now() + interval '1 day' + g * interval '1 second',"
                + " '{\"plan\":\"pro\"}', 'handed_off', 'msg-ahead-' || g, now(), now()"
                + " FROM generate_series(1, " + handedOff + ") g");
        // parked: beyond the hand-off window
        execute(database, "INSERT INTO reminders (user_id, channel, template, fire_at, data, created_at, updated_at)"
                + " SELECT 'parked-' || g, 'push', 'seeded', now() + interval '8 days' + g * interval '1 second',"
                + " '{\"plan\":\"pro\"}', now(), now() FROM generate_series(1, " + parked + ") g");
        execute(database, "INSERT INTO reminder_events (reminder_id, at, type, detail)"
                + " SELECT r.id, r.created_at, e.type, e.detail FROM reminders r CROSS JOIN LATERAL (VALUES"
                + " ('registered', '{\"by\":\"seed\"}'::jsonb), ('received', '{\"transport\":\"push\"}'::jsonb),"
                + " ('attempt', '{\"attempt\":1,\"status\":200,\"latency_ms\":3}'::jsonb), ('sent', '{}'::jsonb))"
                + " AS e(type, detail) WHERE r.state = 'sent' OR e.type = 'registered'");
        execute(database, "VACUUM ANALYZE");
        execute(database, "CHECKPOINT");
    }

    static void execute(DataSource database, String sql) {
        try (Connection connection = database.getConnection(); Statement statement = connection.createStatement()) {
            statement.execute(sql);
        } catch (SQLException e) {
            throw new IllegalStateException(sql + " failed", e);
        }
    }

    static long count(DataSource database, String sql) {
        try (Connection connection = database.getConnection(); Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery(sql)) {
            rows.next();
            return rows.getLong(1);
        } catch (SQLException e) {
            throw new IllegalStateException(sql + " failed", e);
        }
    }

    @Override
    public void stop() {
        // the server stops with this JVM (its shutdown hook), after the application that is still connected to it
    }
}
