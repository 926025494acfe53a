package dev.tickler.operator.rest;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import dev.tickler.ledger.ReminderState;
import dev.tickler.operator.Overview;

/**
 * GET /v1/admin/overview as the contract shows it (docs/contract.md#operator-api): milliseconds and whole seconds,
 * ISO-8601 bucket bounds and hours.
 */
public record OverviewView(Map<String, Long> counts, long oldestOverdueSeconds, DispatchLagView dispatchLagMs,
        List<LatenessView> lateness, List<ForecastView> forecast, Map<String, TenantView> byTenant) {

    /** One tenant's counts (every state), its failed reminders, and the p99 lateness of its last day's sends (null: none). */
    public record TenantView(Map<String, Long> counts, long deadLetters, @Schema(nullable = true) Long latenessP99Ms) {
    }

    /** All 0 when nothing was sent in the last hour, as in the specification's empty example. */
    public record DispatchLagView(long p50, long p95, long p99) {
    }

    /** le is the bucket's upper bound, e.g. PT5S; null for the last bucket, which holds everything later. */
    public record LatenessView(@Schema(nullable = true) String le, long count) {
    }

    public record ForecastView(Instant hour, long due) {
    }

    static OverviewView of(Overview overview) {
        Map<String, TenantView> byTenant = new LinkedHashMap<>();
        overview.byTenant().forEach((tenant, figures) -> byTenant.put(tenant, new TenantView(byWireName(figures.counts()),
                figures.deadLetters(), figures.latenessP99() == null ? null : figures.latenessP99().toMillis())));
        Overview.DispatchLag lag = overview.dispatchLag();
        DispatchLagView lagView = lag == null ? new DispatchLagView(0, 0, 0)
                : new DispatchLagView(lag.p50().toMillis(), lag.p95().toMillis(), lag.p99().toMillis());
        return new OverviewView(byWireName(overview.counts()), overview.oldestOverdue().toSeconds(), lagView,
                overview.lateness().stream().map(bucket -> new LatenessView(
                        bucket.upTo() == null ? null : bucket.upTo().toString(), bucket.count())).toList(),
                overview.forecast().stream().map(hour -> new ForecastView(hour.hour(), hour.due())).toList(),
                byTenant);
    }

    private static Map<String, Long> byWireName(Map<ReminderState, Long> counts) {
        Map<String, Long> named = new LinkedHashMap<>();
        counts.forEach((state, count) -> named.put(state.wireName(), count));
        return named;
    }
}
