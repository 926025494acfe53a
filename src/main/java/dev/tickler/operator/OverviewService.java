package dev.tickler.operator;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;

import io.smallrye.mutiny.Uni;

import dev.tickler.observability.ReminderStatistics;

/**
 * The operator overview (docs/contract.md#operator-api): the counts by state beside the time-bound figures, all as of
 * the clock's now.
 */
@ApplicationScoped
public class OverviewService {

    private final ReminderStatistics statistics;
    private final OverviewRepository repository;
    private final Clock clock;

    public OverviewService(ReminderStatistics statistics, OverviewRepository repository, Clock clock) {
        this.statistics = statistics;
        this.repository = repository;
        this.clock = clock;
    }

    public Uni<Overview> overview() {
        Instant now = clock.instant().truncatedTo(ChronoUnit.MICROS);
        return Uni.combine().all().unis(statistics.countByState(), repository.figures(now)).asTuple()
                .map(both -> {
                    OverviewRepository.Figures figures = both.getItem2();
                    Duration oldestOverdue = figures.oldestOverdueFireAt() == null ? Duration.ZERO
                            : Duration.between(figures.oldestOverdueFireAt(), now);
                    Overview.DispatchLag lag = figures.lagP50() == null ? null
                            : new Overview.DispatchLag(figures.lagP50(), figures.lagP95(), figures.lagP99());
                    return new Overview(both.getItem1(), oldestOverdue, lag, lateness(figures.latenessCounts()),
                            forecast(figures.firstHour(), figures.dueByHour()));
                });
    }

    private static List<Overview.LatenessBucket> lateness(List<Long> counts) {
        List<Overview.LatenessBucket> buckets = new ArrayList<>();
        for (int i = 0; i < counts.size(); i++) {
            Duration upTo = i < OverviewRepository.LATENESS_BOUNDS.size() ? OverviewRepository.LATENESS_BOUNDS.get(i) : null;
            buckets.add(new Overview.LatenessBucket(upTo, counts.get(i)));
        }
        return buckets;
    }

    private static List<Overview.HourlyDue> forecast(Instant firstHour, List<Long> dueByHour) {
        List<Overview.HourlyDue> hours = new ArrayList<>();
        for (int i = 0; i < dueByHour.size(); i++) {
            hours.add(new Overview.HourlyDue(firstHour.plus(Duration.ofHours(i)), dueByHour.get(i)));
        }
        return hours;
    }
}
