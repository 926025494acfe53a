package dev.tickler.operator;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

import jakarta.enterprise.context.ApplicationScoped;

import io.smallrye.mutiny.Uni;

import dev.tickler.ledger.ReminderState;
import dev.tickler.security.ApiKeys;

/**
 * The operator overview (docs/contract.md#operator-api): the counts by state beside the time-bound figures, all as of
 * the clock's now.
 */
@ApplicationScoped
public class OverviewService {

    private final OverviewRepository repository;
    private final ApiKeys keys;
    private final Clock clock;

    public OverviewService(OverviewRepository repository, ApiKeys keys, Clock clock) {
        this.repository = repository;
        this.keys = keys;
        this.clock = clock;
    }

    public Uni<Overview> overview() {
        Instant now = clock.instant().truncatedTo(ChronoUnit.MICROS);
        return Uni.combine().all().unis(repository.byTenant(now, keys.tenants()), repository.figures(now)).asTuple()
                .map(both -> {
                    Map<String, Overview.TenantFigures> byTenant = both.getItem1();
                    OverviewRepository.Figures figures = both.getItem2();
                    Duration oldestOverdue = figures.oldestOverdueFireAt() == null ? Duration.ZERO
                            : Duration.between(figures.oldestOverdueFireAt(), now);
                    Overview.DispatchLag lag = figures.lagP50() == null ? null
                            : new Overview.DispatchLag(figures.lagP50(), figures.lagP95(), figures.lagP99());
                    return new Overview(total(byTenant), oldestOverdue, lag, lateness(figures.latenessCounts()),
                            forecast(figures.firstHour(), figures.dueByHour()), byTenant);
                });
    }

    /** The counts of every tenant added up, so that the totals and by_tenant always agree. */
    private static Map<ReminderState, Long> total(Map<String, Overview.TenantFigures> byTenant) {
        Map<ReminderState, Long> counts = new EnumMap<>(ReminderState.class);
        for (ReminderState state : ReminderState.values()) {
            counts.put(state, byTenant.values().stream().mapToLong(tenant -> tenant.counts().get(state)).sum());
        }
        return counts;
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
