package dev.tickler.operator.rest;

import java.util.ArrayList;
import java.util.List;

import jakarta.annotation.security.RolesAllowed;
import jakarta.validation.constraints.NotNull;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.SecurityContext;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import io.smallrye.mutiny.Uni;

import dev.tickler.ledger.Channel;
import dev.tickler.ledger.ReminderState;
import dev.tickler.operator.BulkChange;
import dev.tickler.operator.BulkOutcome;
import dev.tickler.operator.OperatorReminderService;
import dev.tickler.operator.ReminderFilter;
import dev.tickler.problem.FieldError;
import dev.tickler.problem.ProblemException;
import dev.tickler.reminder.ListPosition;
import dev.tickler.reminder.rest.PageParameters;
import dev.tickler.reminder.rest.ReminderPageView;
import dev.tickler.security.Caller;
import dev.tickler.security.Roles;

/**
 * The operator's reminder calls under /v1/admin (docs/contract.md#operator-api): search across all users of every
 * tenant, bulk redrive and cancel.
 */
@Tag(name = "Operators")
@Path("/v1/admin")
@Produces(MediaType.APPLICATION_JSON)
@RolesAllowed(Roles.OPERATOR)
public class OperatorReminderResource {

    private final OperatorReminderService service;

    public OperatorReminderResource(OperatorReminderService service) {
        this.service = service;
    }

    /** Pages like GET /v1/reminders, in (fire_at, id) order with the same cursor, over every user's reminders. */
    @GET
    @Path("/reminders")
    @Operation(operationId = "searchReminders",
            summary = "Search every user's reminders", description = "Filters are optional and all must hold;"
            + " ordered by fire_at and id, paged like GET /v1/reminders. state takes several states, comma-separated"
            + " or repeated")
    public Uni<ReminderPageView> search(
            @Parameter(schema = @Schema(type = SchemaType.ARRAY, implementation = ReminderState.class))
            @QueryParam("state") List<String> state,
            @Parameter(schema = @Schema(implementation = Channel.class)) @QueryParam("channel") String channel,
            @QueryParam("template") String template, @QueryParam("user_id") String userId,
            @QueryParam("error_contains") String errorContains,
            @Parameter(schema = @Schema(type = SchemaType.STRING, format = "date-time")) @QueryParam("fire_from")
            String fireFrom,
            @Parameter(schema = @Schema(type = SchemaType.STRING, format = "date-time")) @QueryParam("fire_to")
            String fireTo,
            @QueryParam("tenant") String tenant, @QueryParam("key") String key,
            @QueryParam("key_prefix") String keyPrefix, @QueryParam("tag") String tag, @QueryParam("limit") String limit,
            @QueryParam("after") String after) {
        List<FieldError> errors = new ArrayList<>();
        ReminderFilter filter = new FilterFields(state, channel, template, userId, errorContains, fireFrom, fireTo,
                tenant, key, keyPrefix, tag).toFilter(errors);
        Integer pageSize = PageParameters.limit(limit, errors);
        ListPosition position = PageParameters.after(after, errors);
        if (!errors.isEmpty()) {
            return Uni.createFrom().failure(ProblemException.invalid(errors));
        }
        return service.search(filter, position, pageSize).map(ReminderPageView::of);
    }

    /** Failed reminders matching the filter go round again; an empty filter means every failed reminder. */
    @POST
    @Path("/redrive")
    @Operation(operationId = "redriveReminders",
            summary = "Redrive every failed reminder that matches", description = "dry_run true only counts;"
            + " batched, and safe to repeat")
    @Consumes(MediaType.APPLICATION_JSON)
    public Uni<BulkOutcome> redrive(@NotNull(message = "a JSON object is required") BulkChangeRequest request,
            @Context SecurityContext security) {
        ReminderFilter filter = validFilter(request, BulkChange.REDRIVE);
        return service.redrive(filter, request.dryRun(), Caller.nameOf(security));
    }

    /** Pending, handed-off and failed reminders matching the filter are cancelled; an empty filter is refused. */
    @POST
    @Path("/cancel")
    @Operation(operationId = "cancelReminders",
            summary = "Cancel every unfinished reminder that matches", description = "dry_run true only counts;"
            + " an empty filter is refused; batched, and safe to repeat")
    @Consumes(MediaType.APPLICATION_JSON)
    public Uni<BulkOutcome> cancel(@NotNull(message = "a JSON object is required") BulkChangeRequest request,
            @Context SecurityContext security) {
        ReminderFilter filter = validFilter(request, BulkChange.CANCEL);
        return service.cancel(filter, request.dryRun(), Caller.nameOf(security));
    }

    /** Every problem of the body at once, before anything is read or written. */
    private static ReminderFilter validFilter(BulkChangeRequest request, BulkChange change) {
        List<FieldError> errors = new ArrayList<>();
        ReminderFilter filter = request.filter().toFilter(errors);
        if (errors.isEmpty()) {
            // only a filter read in full can be judged empty or out of the operation's states
            errors.addAll(change.problemsWith(filter));
        }
        if (request.dryRun() == null) {
            errors.add(BulkChangeRequest.DRY_RUN_MISSING);
        }
        if (!errors.isEmpty()) {
            throw ProblemException.invalid(errors);
        }
        return filter;
    }
}
