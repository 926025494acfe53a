package dev.tickler.console;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;

import io.smallrye.mutiny.Uni;

import dev.tickler.operator.OverviewService;

/** The console's overview is the operator API's (docs/contract.md#operator-api), in the units the page shows. */
@ApplicationScoped
public class ServiceOverviewFigures implements OverviewFigures {

    private final OverviewService overviews;

    public ServiceOverviewFigures(OverviewService overviews) {
        this.overviews = overviews;
    }

    /** The service reads the application's clock itself, the same one the console's {@code now} comes from. */
    @Override
    public Uni<Overview> overview(Instant now) {
        return overviews.overview().map(figures -> new Overview(figures.counts(),
                figures.oldestOverdue() == null || figures.oldestOverdue().isZero()
                        ? Optional.empty() : Optional.of(figures.oldestOverdue()),
                figures.dispatchLag() == null ? new DispatchLag(null, null, null)
                        : new DispatchLag(millis(figures.dispatchLag().p50()), millis(figures.dispatchLag().p95()),
                                millis(figures.dispatchLag().p99())),
                figures.lateness().stream().map(bucket -> new LatenessBucket(bucket.upTo(), bucket.count())).toList(),
                figures.forecast().stream().map(hour -> new HourlyDue(hour.hour(), hour.due())).toList()));
    }

    private static Double millis(Duration duration) {
        return duration == null ? null : duration.toNanos() / 1e6;
    }
}
