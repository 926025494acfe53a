package dev.tickler.handoff;

import io.smallrye.mutiny.Uni;

/**
 * What happens after a schedule's occurrence ended (sent, failed, expired, skipped, cancelled): the schedule creates
 * its next occurrences. Implemented by the schedule feature; callers only know the reminder carried a schedule_id.
 */
public interface OccurrenceFollowUp {

    /** Tops the schedule up; never fails (a failure is logged, and the sweep's backstop tops it up later). */
    Uni<Void> occurrenceEnded(long scheduleId);
}
