package dev.tickler.operator.rest;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.tickler.operator.Overview;

/**
 * GET /v1/admin/overview as the contract shows it (docs/contract.md#operator-api): milliseconds and whole seconds,
 * ISO-8601 bucket bounds and hours.
 */
public record OverviewView(Map<String, Long> counts, long oldestOverdueSeconds, DispatchLagView dispatchLagMs,
        List<LatenessView> lateness, List<ForecastView> forecast) {

    /** All 0 when nothing was sent in the last hour, as in the specification's empty example. */
    public record DispatchLagView(long p50, long p95, long p99) {
    }

    /** le is the bucket's upper bound, e.g. PT5S; null for the last bucket, which holds everything later. */
    public record LatenessView(String le, long count) {
    }

    public record ForecastView(Instant hour, long due) {
    }

    static OverviewView of(Overview overview) {
        Map<String, Long> counts = new LinkedHashMap<>();
        overview.counts().forEach((state, count) -> counts.put(state.wireName(), count));
        Overview.DispatchLag lag = overview.dispatchLag();
        DispatchLagView lagView = lag == null ? new DispatchLagView(0, 0, 0)
                : new DispatchLagView(lag.p50().toMillis(), lag.p95().toMillis(), lag.p99().toMillis());
        return new OverviewView(counts, overview.oldestOverdue().toSeconds(), lagView,
                overview.lateness().stream().map(bucket -> new LatenessView(
                        bucket.upTo() == null ? null : bucket.upTo().toString(), bucket.count())).toList(),
                overview.forecast().stream().map(hour -> new ForecastView(hour.hour(), hour.due())).toList());
    }
}
