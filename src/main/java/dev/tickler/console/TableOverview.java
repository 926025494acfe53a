package dev.tickler.console;

import static dev.tickler.db.SqlTimestamps.utc;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import jakarta.enterprise.context.ApplicationScoped;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;

import dev.tickler.observability.ReminderStatistics;

/** The overview from the reminders table, until the operator API's overview (SPEC §13) takes over. */
@ApplicationScoped
public class TableOverview implements OverviewFigures {

    static final List<Duration> LATENESS_BOUNDS = List.of(Duration.ofSeconds(1), Duration.ofSeconds(5),
            Duration.ofSeconds(30), Duration.ofMinutes(5));
    static final int FORECAST_HOURS = 48;

    private static final String LATENESS = "SELECT"
            + " count(*) FILTER (WHERE late <= interval '1 second'),"
            + " count(*) FILTER (WHERE late > interval '1 second' AND late <= interval '5 seconds'),"
            + " count(*) FILTER (WHERE late > interval '5 seconds' AND late <= interval '30 seconds'),"
            + " count(*) FILTER (WHERE late > interval '30 seconds' AND late <= interval '5 minutes'),"
            + " count(*) FILTER (WHERE late > interval '5 minutes')"
            + " FROM (SELECT sent_at - fire_at AS late FROM reminders WHERE state = 'sent' AND sent_at >= $1) sends";

    private static final String DISPATCH_LAG = "SELECT"
            + " percentile_cont(0.5) WITHIN GROUP (ORDER BY lag_ms),"
            + " percentile_cont(0.95) WITHIN GROUP (ORDER BY lag_ms),"
            + " percentile_cont(0.99) WITHIN GROUP (ORDER BY lag_ms)"
            + " FROM (SELECT extract(epoch FROM sent_at - fire_at) * 1000 AS lag_ms FROM reminders"
            + " WHERE state = 'sent' AND sent_at >= $1) sends";

    private static final String FORECAST = "SELECT date_trunc('hour', fire_at AT TIME ZONE 'UTC') AS hour, count(*)"
            + " FROM reminders WHERE state IN ('pending', 'handed_off', 'delivering') AND fire_at >= $1 AND fire_at < $2"
            + " GROUP BY 1";

    private final Pool pool;
    private final ReminderStatistics statistics;

    public TableOverview(Pool pool, ReminderStatistics statistics) {
        this.pool = pool;
        this.statistics = statistics;
    }

    @Override
    public Uni<Overview> overview(Instant now) {
        return Uni.combine().all().unis(statistics.countByState(), statistics.oldestOverdue(now), dispatchLag(now),
                        lateness(now), forecast(now))
                .asTuple()
                .map(all -> new Overview(all.getItem1(), all.getItem2().map(fireAt -> Duration.between(fireAt, now)),
                        all.getItem3(), all.getItem4(), all.getItem5()));
    }

    private Uni<DispatchLag> dispatchLag(Instant now) {
        return pool.preparedQuery(DISPATCH_LAG).execute(Tuple.of(utc(now.minus(Duration.ofHours(1))))).map(rows -> {
            Row row = rows.iterator().next();
            return new DispatchLag(row.getDouble(0), row.getDouble(1), row.getDouble(2));
        });
    }

    private Uni<List<LatenessBucket>> lateness(Instant now) {
        return pool.preparedQuery(LATENESS).execute(Tuple.of(utc(now.minus(Duration.ofHours(24))))).map(rows -> {
            Row row = rows.iterator().next();
            List<LatenessBucket> buckets = new ArrayList<>();
            for (int i = 0; i < LATENESS_BOUNDS.size(); i++) {
                buckets.add(new LatenessBucket(LATENESS_BOUNDS.get(i), row.getLong(i)));
            }
            buckets.add(new LatenessBucket(null, row.getLong(LATENESS_BOUNDS.size())));
            return buckets;
        });
    }

    /** Every hour of the next 48, the current one first, with 0 where nothing is due. */
    private Uni<List<HourlyDue>> forecast(Instant now) {
        Instant first = now.truncatedTo(ChronoUnit.HOURS);
        Instant end = first.plus(Duration.ofHours(FORECAST_HOURS));
        return pool.preparedQuery(FORECAST).execute(Tuple.of(utc(first), utc(end))).map(rows -> {
            Map<Instant, Long> dueByHour = new HashMap<>();
            for (Row row : rows) {
                dueByHour.put(row.getLocalDateTime(0).toInstant(ZoneOffset.UTC), row.getLong(1));
            }
            List<HourlyDue> hours = new ArrayList<>();
            for (int i = 0; i < FORECAST_HOURS; i++) {
                Instant hour = first.plus(Duration.ofHours(i));
                hours.add(new HourlyDue(hour, dueByHour.getOrDefault(hour, 0L)));
            }
            return hours;
        });
    }
}
