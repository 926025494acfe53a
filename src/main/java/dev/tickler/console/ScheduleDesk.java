package dev.tickler.console;

import java.util.List;
import java.util.Optional;

import io.smallrye.mutiny.Uni;

import dev.tickler.schedule.OccurrencePlan;
import dev.tickler.schedule.ScheduleRow;
import dev.tickler.schedule.ScheduleService;

/** What the console reads about schedules: the calls the /v1 schedules API makes too. */
public interface ScheduleDesk {

    Uni<ScheduleService.Page> forUser(String userId, Long afterId, int limit);

    Uni<Optional<ScheduleRow>> find(long id);

    /** The next occurrences from now, as the API's preview gives them. */
    Uni<List<OccurrencePlan.Numbered>> preview(long id, int count);
}
