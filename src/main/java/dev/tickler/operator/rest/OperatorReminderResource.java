package dev.tickler.operator.rest;

import java.util.ArrayList;
import java.util.List;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

import io.smallrye.mutiny.Uni;

import dev.tickler.operator.OperatorReminderService;
import dev.tickler.operator.ReminderFilter;
import dev.tickler.problem.FieldError;
import dev.tickler.problem.ProblemException;
import dev.tickler.reminder.ListPosition;
import dev.tickler.reminder.rest.PageParameters;
import dev.tickler.reminder.rest.ReminderPageView;

/** The operator's reminder calls under /v1/admin (SPEC §13): search across all users. */
@Path("/v1/admin")
@Produces(MediaType.APPLICATION_JSON)
public class OperatorReminderResource {

    private final OperatorReminderService service;

    public OperatorReminderResource(OperatorReminderService service) {
        this.service = service;
    }

    /** Pages like GET /v1/reminders, in (fire_at, id) order with the same cursor, over every user's reminders. */
    @GET
    @Path("/reminders")
    public Uni<ReminderPageView> search(@QueryParam("state") String state, @QueryParam("channel") String channel,
            @QueryParam("template") String template, @QueryParam("user_id") String userId,
            @QueryParam("error_contains") String errorContains, @QueryParam("fire_from") String fireFrom,
            @QueryParam("fire_to") String fireTo, @QueryParam("limit") String limit, @QueryParam("after") String after) {
        List<FieldError> errors = new ArrayList<>();
        ReminderFilter filter = new FilterFields(state, channel, template, userId, errorContains, fireFrom, fireTo)
                .toFilter(errors);
        Integer pageSize = PageParameters.limit(limit, errors);
        ListPosition position = PageParameters.after(after, errors);
        if (!errors.isEmpty()) {
            return Uni.createFrom().failure(ProblemException.invalid(errors));
        }
        return service.search(filter, position, pageSize).map(ReminderPageView::of);
    }
}
