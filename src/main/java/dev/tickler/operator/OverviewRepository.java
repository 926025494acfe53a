package dev.tickler.operator;

import static dev.tickler.db.SqlTimestamps.instant;
import static dev.tickler.db.SqlTimestamps.utc;
import static dev.tickler.ledger.ReminderState.SENT;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import jakarta.enterprise.context.ApplicationScoped;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.Tuple;

import dev.tickler.db.IndexesOnly;
import dev.tickler.db.WireNamed;
import dev.tickler.ledger.Deferrals;
import dev.tickler.ledger.ReminderState;

/**
 * The time-bound figures of the operator overview (docs/contract.md#operator-api) in one statement, each read from a
 * partial index: the waiting states' indexes on fire_at for the oldest overdue reminder and the forecast, and the
 * retention index on updated_at for the sends of the last day (a sent row is never changed again, so its updated_at is
 * its sent_at).
 */
@ApplicationScoped
public class OverviewRepository {

    /** Upper bounds of the lateness buckets; one more bucket holds everything later. */
    public static final List<Duration> LATENESS_BOUNDS =
            List.of(Duration.ofSeconds(1), Duration.ofSeconds(5), Duration.ofSeconds(30), Duration.ofMinutes(5));
    public static final int FORECAST_HOURS = 48;
    static final Duration LAG_WINDOW = Duration.ofHours(1);
    static final Duration LATENESS_WINDOW = Duration.ofDays(1);

    /** The states of a reminder still on its way to being sent; a failed one waits for an operator instead. */
    private static final List<ReminderState> WAITING_STATES =
            List.of(ReminderState.PENDING, ReminderState.HANDED_OFF, ReminderState.DELIVERING);

    /** $1 now, $2 a day ago, $3 an hour ago, $4 the start of the current hour, $5 the end of the forecast. */
    static final String FIGURES = "WITH sends AS ("
            // lateness from fire_at (docs/contract.md#operator-api); dispatch lag from the send time the reminder had
            + " SELECT sent_at, sent_at - fire_at AS lateness, sent_at - " + Deferrals.DUE + " AS dispatch_lag"
            + " FROM reminders"
            + " WHERE state = " + SENT.sql() + " AND updated_at > $2 AND sent_at > $2 AND sent_at <= $1),"
            + " sends_summary AS (SELECT percentile_disc(ARRAY[0.5, 0.95, 0.99]::float8[])"
            + " WITHIN GROUP (ORDER BY dispatch_lag) FILTER (WHERE sent_at > $3) AS lag, " + latenessCounts()
            + " FROM sends),"
            + " due_by_hour AS (SELECT floor(extract(epoch FROM fire_at - $4) / 3600)::int AS hour_index, count(*) AS due"
            + " FROM (" + waiting("fire_at >= $4 AND fire_at < $5", "fire_at") + ") AS waiting GROUP BY 1)"
            + " SELECT (SELECT min(oldest) FROM (" + waiting(Deferrals.OVERDUE_BEFORE_$1, "min(" + Deferrals.DUE + ")") + ") AS overdue(oldest))"
            + " AS oldest_overdue,"
            + " (extract(epoch FROM lag[1]) * 1000000)::bigint AS p50_micros,"
            + " (extract(epoch FROM lag[2]) * 1000000)::bigint AS p95_micros,"
            + " (extract(epoch FROM lag[3]) * 1000000)::bigint AS p99_micros,"
            + " ARRAY[" + bucketColumns() + "] AS lateness,"
            + " (SELECT array_agg(coalesce(due, 0) ORDER BY h)"
            + " FROM generate_series(0, " + (FORECAST_HOURS - 1) + ") AS h LEFT JOIN due_by_hour ON hour_index = h)"
            + " AS forecast"
            + " FROM sends_summary";

    /** $1 a day ago, $2 now: each tenant's sends of the last day, as FIGURES reads them. */
    static final String TENANT_LATENESS = "SELECT tenant, (extract(epoch FROM percentile_disc(0.99) WITHIN GROUP"
            + " (ORDER BY sent_at - fire_at)) * 1000000)::bigint AS p99_micros FROM reminders"
            + " WHERE state = " + SENT.sql() + " AND updated_at > $1 AND sent_at > $1 AND sent_at <= $2 GROUP BY tenant";

    static final String TENANT_COUNTS = "SELECT tenant, state, count(*) AS reminders FROM reminders"
            + " GROUP BY tenant, state";

    /** The overview's figures as of {@code now}. */
    public record Figures(Instant oldestOverdueFireAt, Duration lagP50, Duration lagP95, Duration lagP99,
            List<Long> latenessCounts, Instant firstHour, List<Long> dueByHour) {
    }

    private final Pool pool;

    public OverviewRepository(Pool pool) {
        this.pool = pool;
    }

    public Uni<Figures> figures(Instant now) {
        // its oldest-overdue part reads the waiting states past their fire_at, as the gauge does
        return IndexesOnly.read(pool, connection -> connection.preparedQuery(FIGURES).execute(parameters(now)))
                .map(rows -> {
                    Row row = rows.iterator().next();
                    return new Figures(instant(row, "oldest_overdue"), micros(row, "p50_micros"),
                            micros(row, "p95_micros"), micros(row, "p99_micros"),
                            List.of(row.getArrayOfLongs("lateness")), firstHour(now),
                            List.of(row.getArrayOfLongs("forecast")));
                });
    }

    /** Each tenant's figures, for these tenants and every other that has reminders, in tenant order. */
    public Uni<Map<String, Overview.TenantFigures>> byTenant(Instant now, Collection<String> tenants) {
        Uni<RowSet<Row>> counts = pool.query(TENANT_COUNTS).execute();
        Uni<RowSet<Row>> lateness = pool.preparedQuery(TENANT_LATENESS)
                .execute(Tuple.of(utc(now.minus(LATENESS_WINDOW)), utc(now)));
        return Uni.combine().all().unis(counts, lateness).asTuple().map(both -> {
            Map<String, Map<ReminderState, Long>> countsByTenant = new TreeMap<>();
            tenants.forEach(tenant -> countsByTenant.put(tenant, noneInAnyState()));
            for (Row row : both.getItem1()) {
                Map<ReminderState, Long> tenantCounts = countsByTenant.computeIfAbsent(row.getString("tenant"),
                        tenant -> noneInAnyState());
                WireNamed.find(ReminderState.class, row.getString("state"))
                        .ifPresent(state -> tenantCounts.put(state, row.getLong("reminders")));
            }
            Map<String, Duration> p99ByTenant = new HashMap<>();
            for (Row row : both.getItem2()) {
                p99ByTenant.put(row.getString("tenant"), micros(row, "p99_micros"));
            }
            Map<String, Overview.TenantFigures> figures = new LinkedHashMap<>();
            countsByTenant.forEach((tenant, tenantCounts) -> figures.put(tenant,
                    new Overview.TenantFigures(tenantCounts, p99ByTenant.get(tenant))));
            return figures;
        });
    }

    private static Map<ReminderState, Long> noneInAnyState() {
        Map<ReminderState, Long> counts = new EnumMap<>(ReminderState.class);
        for (ReminderState state : ReminderState.values()) {
            counts.put(state, 0L);
        }
        return counts;
    }

    static Tuple parameters(Instant now) {
        return Tuple.of(utc(now), utc(now.minus(LATENESS_WINDOW)), utc(now.minus(LAG_WINDOW)), utc(firstHour(now)),
                utc(firstHour(now).plus(Duration.ofHours(FORECAST_HOURS))));
    }

    private static Instant firstHour(Instant now) {
        return now.truncatedTo(ChronoUnit.HOURS);
    }

    /** The query for the waiting states, one branch per state so that each reads that state's partial index. */
    private static String waiting(String condition, String select) {
        List<String> branches = new ArrayList<>();
        for (ReminderState state : WAITING_STATES) {
            branches.add("SELECT " + select + " FROM reminders WHERE state = '" + state.wireName() + "' AND "
                    + condition);
        }
        return String.join(" UNION ALL ", branches);
    }

    /** One count per bucket: each send in the first bucket whose bound it does not exceed. */
    private static String latenessCounts() {
        List<String> counts = new ArrayList<>();
        Duration previous = null;
        for (int i = 0; i <= LATENESS_BOUNDS.size(); i++) {
            Duration bound = i < LATENESS_BOUNDS.size() ? LATENESS_BOUNDS.get(i) : null;
            String above = previous == null ? null : "lateness > interval '" + previous + "'";
            String within = bound == null ? null : "lateness <= interval '" + bound + "'";
            String condition = above == null ? within : within == null ? above : above + " AND " + within;
            counts.add("count(*) FILTER (WHERE " + condition + ") AS bucket_" + i);
            previous = bound;
        }
        return String.join(", ", counts);
    }

    private static String bucketColumns() {
        List<String> columns = new ArrayList<>();
        for (int i = 0; i <= LATENESS_BOUNDS.size(); i++) {
            columns.add("bucket_" + i);
        }
        return String.join(", ", columns);
    }

    private static Duration micros(Row row, String column) {
        Long micros = row.getLong(column);
        return micros == null ? null : Duration.of(micros, ChronoUnit.MICROS);
    }
}
