package dev.tickler.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import javax.sql.DataSource;

/**
 * What a stretch of traffic cost PostgreSQL, read from the server itself: the CPU of the postmaster and every process
 * it started ({@code /proc}: connections, autovacuum workers, checkpointer and writers; a child that exited is in the
 * postmaster's own count of its children), the statements by their execution time ({@code pg_stat_statements}), and
 * how the tables and their indexes grew. A sampler attributes the CPU of the processes alive at each sample to their
 * role; what exited between two samples stays unattributed, but is in the total.
 */
final class PostgresCost implements AutoCloseable {

    private static final long CLOCK_TICK_NANOS = 10_000_000L;
    private static final List<String> TABLES = List.of("reminders", "reminder_events");

    private final DataSource database;
    private final long postmaster;
    private final Map<Long, Long> lastCpu = new ConcurrentHashMap<>();
    private final Map<String, Long> cpuByRole = new ConcurrentHashMap<>();
    private final ScheduledExecutorService sampler = Executors.newSingleThreadScheduledExecutor();
    private long startCpu;
    private long startNanos;
    private Map<String, Long> startSizes;
    private Map<String, Long> startActivity;

    PostgresCost(DataSource database) {
        this.database = database;
        this.postmaster = postmasterOf(database);
        sampler.scheduleAtFixedRate(this::sample, 0, 500, TimeUnit.MILLISECONDS);
    }

    /** From now on: statements counted afresh, CPU and sizes read as the start. */
    void start() {
        single("SELECT count(*) FROM (SELECT pg_stat_statements_reset()) r");
        cpuByRole.clear();
        startSizes = sizes();
        startActivity = activity();
        startCpu = serverCpuNanos();
        startNanos = System.nanoTime();
    }

    /** The cost since {@link #start()}, per reminder of the {@code reminders} that went through their life meanwhile. */
    String describe(long reminders) {
        long cpu = serverCpuNanos() - startCpu;
        double seconds = (System.nanoTime() - startNanos) / 1e9;
        StringBuilder out = new StringBuilder();
        out.append(String.format("postgres CPU: %.1f s in %.0f s (%.0f %% of a core), %d µs per reminder%n",
                cpu / 1e9, seconds, 100 * cpu / 1e9 / seconds, cpu / 1_000 / reminders));
        long attributed = 0;
        for (Map.Entry<String, Long> role : new java.util.TreeMap<>(cpuByRole).entrySet()) {
            attributed += role.getValue();
            out.append(String.format("    %-22s %6d µs per reminder%n", role.getKey(), role.getValue() / 1_000 / reminders));
        }
        out.append(String.format("    %-22s %6d µs per reminder%n", "exited between samples",
                Math.max(0, cpu - attributed) / 1_000 / reminders));
        out.append(topStatements(reminders));
        out.append(tableActivity(reminders));
        out.append(growth());
        return out.toString();
    }

    private String topStatements(long reminders) {
        record Tracked(long calls, double millis, long plans, double planMillis, long rows, String query) {
            String describe(long reminders) {
                return String.format("    %6.1f µs/reminder %6.2f calls/reminder %8.1f µs/call %7.1f rows/call"
                        + "  planned %5.2f times/call, %6.1f µs/reminder  %s%n", millis * 1_000 / reminders,
                        (double) calls / reminders, millis * 1_000 / Math.max(1, calls),
                        (double) rows / Math.max(1, calls), (double) plans / Math.max(1, calls),
                        planMillis * 1_000 / reminders, shorten(query));
            }
        }
        List<Tracked> statements = new ArrayList<>();
        try (Connection connection = database.getConnection(); Statement read = connection.createStatement();
                ResultSet rows = read.executeQuery("SELECT calls, total_exec_time, plans, total_plan_time, rows, query"
                        + " FROM pg_stat_statements"
                        + " WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())")) {
            while (rows.next()) {
                statements.add(new Tracked(rows.getLong(1), rows.getDouble(2), rows.getLong(3), rows.getDouble(4),
                        rows.getLong(5), rows.getString(6)));
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
        double millis = statements.stream().mapToDouble(Tracked::millis).sum();
        double planMillis = statements.stream().mapToDouble(Tracked::planMillis).sum();
        long calls = statements.stream().mapToLong(Tracked::calls).sum();
        StringBuilder out = new StringBuilder(String.format("statements (pg_stat_statements): %.0f µs of execution"
                + " time, %.0f µs of planning and %.1f calls per reminder (each call, pipelined or not, pays the"
                + " server's fixed cost of a statement); by execution time:%n", millis * 1_000 / reminders,
                planMillis * 1_000 / reminders, (double) calls / reminders));
        statements.stream().sorted(Comparator.comparingDouble(Tracked::millis).reversed()).limit(12)
                .forEach(tracked -> out.append(tracked.describe(reminders)));
        out.append("  by planning time:\n");
        statements.stream().sorted(Comparator.comparingDouble(Tracked::planMillis).reversed()).limit(6)
                .forEach(tracked -> out.append(tracked.describe(reminders)));
        out.append("  by calls:\n");
        statements.stream().sorted(Comparator.comparingLong(Tracked::calls).reversed()).limit(12)
                .forEach(tracked -> out.append(tracked.describe(reminders)));
        return out.toString();
    }

    private String tableActivity(long reminders) {
        Map<String, Long> now = activity();
        StringBuilder out = new StringBuilder("table activity per reminder:");
        for (String table : TABLES) {
            out.append(String.format("%n    %-16s", table));
            for (String column : List.of("n_tup_ins", "n_tup_upd", "n_tup_hot_upd", "n_tup_del", "autovacuum_count",
                    "autoanalyze_count")) {
                long delta = now.get(table + "." + column) - startActivity.get(table + "." + column);
                out.append(column.startsWith("auto") ? String.format("  %s %d", column, delta)
                        : String.format("  %s %.2f", column.substring(2), (double) delta / reminders));
            }
        }
        return out.append('\n').toString();
    }

    private String growth() {
        Map<String, Long> now = sizes();
        StringBuilder out = new StringBuilder("relation sizes, start → end (MB):\n");
        now.forEach((relation, bytes) -> out.append(String.format("    %-48s %9.1f → %9.1f%n", relation,
                startSizes.getOrDefault(relation, 0L) / 1e6, bytes / 1e6)));
        return out.toString();
    }

    private Map<String, Long> activity() {
        Map<String, Long> values = new HashMap<>();
        try (Connection connection = database.getConnection(); Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery("SELECT relname, n_tup_ins, n_tup_upd, n_tup_hot_upd, n_tup_del,"
                        + " autovacuum_count, autoanalyze_count FROM pg_stat_user_tables")) {
            while (rows.next()) {
                for (int column = 2; column <= 7; column++) {
                    values.put(rows.getString(1) + "." + rows.getMetaData().getColumnName(column), rows.getLong(column));
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
        return values;
    }

    /** Every table of the schema and every index, by size (the reminders' first). */
    private Map<String, Long> sizes() {
        Map<String, Long> sizes = new LinkedHashMap<>();
        try (Connection connection = database.getConnection(); Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery("SELECT coalesce(i.indexrelid::regclass::text, t.relid::regclass::text),"
                        + " pg_relation_size(coalesce(i.indexrelid, t.relid)) FROM pg_stat_user_tables t"
                        + " LEFT JOIN LATERAL (SELECT NULL::oid AS indexrelid UNION ALL SELECT indexrelid FROM pg_index"
                        + " WHERE indrelid = t.relid) i ON true WHERE t.relname IN ('reminders', 'reminder_events')"
                        + " ORDER BY t.relname DESC, i.indexrelid NULLS FIRST")) {
            while (rows.next()) {
                sizes.put(rows.getString(1), rows.getLong(2));
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
        return sizes;
    }

    private void sample() {
        try (Stream<Path> processes = Files.list(Path.of("/proc"))) {
            processes.filter(path -> path.getFileName().toString().chars().allMatch(Character::isDigit)).forEach(path -> {
                long pid = Long.parseLong(path.getFileName().toString());
                long[] stat = stat(pid);
                if (stat == null || stat[0] != postmaster) {
                    return;
                }
                long cpu = stat[1];
                Long before = lastCpu.put(pid, cpu);
                if (before != null && cpu > before) {
                    cpuByRole.merge(role(pid), cpu - before, Long::sum);
                }
            });
        } catch (IOException | RuntimeException e) {
            // a process that went away while being read; the next sample sees the rest
        }
    }

    private static String role(long pid) {
        try {
            String command = new String(Files.readAllBytes(Path.of("/proc", Long.toString(pid), "cmdline"))).trim();
            if (command.contains("autovacuum")) {
                return "autovacuum";
            }
            if (command.contains("parallel worker")) {
                return "parallel workers";
            }
            if (command.contains("(")) {
                return "connections";
            }
            String role = command.replace("postgres: ", "").replace('\0', ' ').trim();
            return role.isEmpty() ? "other" : role;
        } catch (IOException e) {
            return "exited";
        }
    }

    /** The postmaster's CPU with that of its children, live or exited. */
    private long serverCpuNanos() {
        long total = cpuWithExitedChildren(postmaster);
        try (Stream<Path> processes = Files.list(Path.of("/proc"))) {
            for (Path path : (Iterable<Path>) processes::iterator) {
                String name = path.getFileName().toString();
                if (name.chars().allMatch(Character::isDigit)) {
                    long[] stat = stat(Long.parseLong(name));
                    if (stat != null && stat[0] == postmaster) {
                        total += stat[1] + stat[2];
                    }
                }
            }
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        return total;
    }

    private static long cpuWithExitedChildren(long pid) {
        long[] stat = stat(pid);
        return stat[1] + stat[2];
    }

    /** The parent of a connection's server process, read while the connection is open. */
    private static long postmasterOf(DataSource database) {
        try (Connection connection = database.getConnection(); Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery("SELECT pg_backend_pid()")) {
            rows.next();
            return stat(rows.getLong(1))[0];
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Parent pid, own CPU and CPU of exited children in nanoseconds; null when the process is gone. */
    private static long[] stat(long pid) {
        try {
            String line = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            String[] fields = line.substring(line.lastIndexOf(')') + 2).split(" ");
            return new long[] { Long.parseLong(fields[1]),
                    (Long.parseLong(fields[11]) + Long.parseLong(fields[12])) * CLOCK_TICK_NANOS,
                    (Long.parseLong(fields[13]) + Long.parseLong(fields[14])) * CLOCK_TICK_NANOS };
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    private long single(String sql) {
        try (Connection connection = database.getConnection(); Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery(sql)) {
            rows.next();
            return rows.getLong(1);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String shorten(String query) {
        String flat = query.replaceAll("\\s+", " ");
        return flat.length() > 140 ? flat.substring(0, 140) + "…" : flat;
    }

    @Override
    public void close() {
        sampler.shutdownNow();
    }
}
