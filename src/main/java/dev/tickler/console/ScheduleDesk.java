package dev.tickler.console;

import java.util.List;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;

import io.smallrye.mutiny.Uni;

import dev.tickler.problem.ProblemException;
import dev.tickler.schedule.OccurrencePlan;
import dev.tickler.schedule.ScheduleRow;
import dev.tickler.schedule.ScheduleService;
import dev.tickler.security.Caller;

@ApplicationScoped
public class ScheduleDesk {

    private final ScheduleService schedules;

    public ScheduleDesk(ScheduleService schedules) {
        this.schedules = schedules;
    }

    /** The console reads as an operator: every tenant's schedules. */
    private static final Caller READER = Caller.operator("console");

    public Uni<ScheduleService.Page> forUser(String userId, Long afterId, int limit) {
        return schedules.list(READER, userId, afterId, limit);
    }

    public Uni<Optional<ScheduleRow>> find(long id) {
        return schedules.get(id, READER).map(Optional::of)
                .onFailure(ProblemException.class).recoverWithItem(Optional.empty());
    }

    public Uni<List<OccurrencePlan.Numbered>> preview(long id, int count) {
        return schedules.preview(id, count, READER);
    }
}
