package dev.tickler.console;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;

import io.smallrye.mutiny.Uni;

import dev.tickler.ledger.ReminderState;
import dev.tickler.operator.Overview.TenantFigures;
import dev.tickler.operator.OverviewService;

/**
 * The figures of the operator overview (docs/contract.md#operator-api), as the console's overview page shows them
 *.
 */
@ApplicationScoped
public class OverviewFigures {

    public record Overview(Map<ReminderState, Long> counts, Optional<Duration> oldestOverdue, DispatchLag dispatchLag,
            List<LatenessBucket> lateness, List<HourlyDue> forecast, Map<String, TenantFigures> byTenant) {
    }

    /** The overview's dispatch lag in milliseconds, from due to sent, over the last hour's sends; null without any. */
    public record DispatchLag(Double p50, Double p95, Double p99) {
    }

    /** Sends of the last 24 hours at most {@code upTo} late (and later than the bucket before); null: the rest. */
    public record LatenessBucket(Duration upTo, long count) {
    }

    /** Non-terminal reminders firing in this UTC hour. */
    public record HourlyDue(Instant hour, long due) {
    }

    private final OverviewService overviews;

    public OverviewFigures(OverviewService overviews) {
        this.overviews = overviews;
    }

    /** The service reads the application's clock itself, the same one the console's {@code now} comes from. */
    public Uni<Overview> overview(Instant now) {
        return overviews.overview().map(figures -> new Overview(figures.counts(),
                figures.oldestOverdue() == null || figures.oldestOverdue().isZero()
                        ? Optional.empty() : Optional.of(figures.oldestOverdue()),
                figures.dispatchLag() == null ? new DispatchLag(null, null, null)
                        : new DispatchLag(millis(figures.dispatchLag().p50()), millis(figures.dispatchLag().p95()),
                                millis(figures.dispatchLag().p99())),
                figures.lateness().stream().map(bucket -> new LatenessBucket(bucket.upTo(), bucket.count())).toList(),
                figures.forecast().stream().map(hour -> new HourlyDue(hour.hour(), hour.due())).toList(),
                figures.byTenant()));
    }

    private static Double millis(Duration duration) {
        return duration == null ? null : duration.toNanos() / 1e6;
    }
}
