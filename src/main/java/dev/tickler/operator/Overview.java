package dev.tickler.operator;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import dev.tickler.ledger.ReminderState;

/**
 * The operator overview (docs/contract.md#operator-api) as of one instant.
 *
 * @param counts every state, 0 for those without reminders
 * @param oldestOverdue how long ago the oldest reminder still on its way (pending, handed_off or delivering) was due;
 *        zero when none is overdue
 * @param dispatchLag from when each send of the last hour was due to go (its fire_at, or later when it was deferred,
 *        retried, redriven, caught up or registered past its fire_at) → sent_at; null when there were none
 * @param lateness fire_at → sent_at of the sends of the last 24 hours, in buckets
 * @param forecast reminders on their way due in each UTC hour, the current hour first
 * @param byTenant each tenant's share, in tenant order: every tenant with reminders or a configured key
 */
public record Overview(Map<ReminderState, Long> counts, Duration oldestOverdue, DispatchLag dispatchLag,
        List<LatenessBucket> lateness, List<HourlyDue> forecast, Map<String, TenantFigures> byTenant) {

    /**
     * One tenant's reminders by state (every state, 0 for those it has none in) and the p99 lateness (fire_at → sent_at)
     * of its sends of the last 24 hours, null when it had none.
     */
    public record TenantFigures(Map<ReminderState, Long> counts, Duration latenessP99) {

        public long deadLetters() {
            return counts.get(ReminderState.FAILED);
        }
    }

    /** Percentiles as some send actually had them (percentile_disc), not interpolated between sends. */
    public record DispatchLag(Duration p50, Duration p95, Duration p99) {
    }

    /** Sends whose lateness exceeds the previous bucket's bound and not this one's; the last bucket has none. */
    public record LatenessBucket(Duration upTo, long count) {
    }

    public record HourlyDue(Instant hour, long due) {
    }
}
