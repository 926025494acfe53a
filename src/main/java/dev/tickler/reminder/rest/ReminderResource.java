package dev.tickler.reminder.rest;

import java.net.URI;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;

import jakarta.annotation.security.RolesAllowed;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PATCH;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.SecurityContext;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;

import com.fasterxml.jackson.databind.JsonNode;

import io.smallrye.mutiny.Uni;

import dev.tickler.db.WireNamed;
import dev.tickler.ledger.NewReminder;
import dev.tickler.ledger.Registration;
import dev.tickler.ledger.ReminderState;
import dev.tickler.problem.FieldError;
import dev.tickler.problem.ProblemException;
import dev.tickler.reminder.ListPosition;
import dev.tickler.reminder.ReminderService;
import dev.tickler.security.Caller;
import dev.tickler.security.Roles;
import dev.tickler.timeline.EventPosition;
import dev.tickler.timeline.Timeline;
import dev.tickler.timeline.TimelinePageView;
import dev.tickler.validation.TextRules;

/** The registration API for product services (docs/contract.md#registration-api, #keys-and-roles). */
@Path("/v1/reminders")
@Produces(MediaType.APPLICATION_JSON)
@RolesAllowed(Roles.PRODUCT)
public class ReminderResource {

    /** Ids in paths are plain ASCII digits without sign or leading zeros; anything else names no reminder (404). */
    static final String ID = "[1-9][0-9]{0,18}";

    private final ReminderService service;
    private final BatchItems batchItems;
    private final Timeline timeline;

    public ReminderResource(ReminderService service, BatchItems batchItems, Timeline timeline) {
        this.service = service;
        this.batchItems = batchItems;
        this.timeline = timeline;
    }

    /** 201 with Location for a new reminder; 200 with the existing one for a repeated (user_id, template, fire_at). */
    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(operationId = "createReminder", summary = "Register a reminder")
    @APIResponse(responseCode = "201", description = "Registered; Location names the new reminder",
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = ReminderView.class)))
    @APIResponse(responseCode = "200", description = "Registered before with this user_id, template and fire_at: the"
            + " existing reminder", content = @Content(mediaType = MediaType.APPLICATION_JSON,
                    schema = @Schema(implementation = ReminderView.class)))
    public Uni<Response> create(@Valid @NotNull(message = "a JSON object is required") CreateReminderRequest request,
            @Context SecurityContext security) {
        return service.register(request.toNewReminder(), Caller.of(security)).map(registration -> {
            ReminderView view = ReminderView.of(registration.reminder());
            return Response.status(registration.created() ? Response.Status.CREATED : Response.Status.OK)
                    .location(URI.create("/v1/reminders/" + view.id()))
                    .entity(view)
                    .build();
        });
    }

    /** The answer to a batch registration: one result per item, in order. */
    public record BatchResponse(List<BatchResult> items) {
    }

    /**
     * Up to 1,000 registrations in one call (docs/contract.md#batch-registration): each item answered as the single
     * POST would answer it, one bad item never failing the others; always 200 when the body itself is {"items": [...]}.
     */
    @POST
    @Path("/batch")
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(operationId = "createReminderBatch", summary = "Register up to 1,000 reminders in one call")
    public Uni<BatchResponse> registerBatch(JsonNode body, @Context SecurityContext security) {
        List<BatchItems.Item> items = batchItems.read(body);
        List<NewReminder> valid = items.stream().map(BatchItems.Item::reminder).filter(Objects::nonNull).toList();
        return service.registerAll(valid, Caller.of(security)).map(registrations -> {
            Iterator<Registration> next = registrations.iterator();
            List<BatchResult> results = new ArrayList<>(items.size());
            for (BatchItems.Item item : items) {
                if (item.problem() != null) {
                    results.add(new BatchResult(item.problem().status(), null, item.problem()));
                } else {
                    Registration registration = next.next();
                    results.add(new BatchResult(registration.created() ? 201 : 200,
                            ReminderView.of(registration.reminder()), null));
                }
            }
            return new BatchResponse(results);
        });
    }

    @GET
    @Path("/{id: " + ID + "}")
    @Operation(operationId = "getReminder", summary = "Read a reminder")
    public Uni<ReminderView> get(@PathParam("id") long id, @Context SecurityContext security) {
        return service.get(id, Caller.of(security)).map(ReminderView::of);
    }

    @GET
    @Operation(operationId = "listReminders",
            summary = "List a user's reminders", description = "Ordered by fire_at and id; next is the cursor"
            + " for the following page, null on the last")
    public Uni<ReminderPageView> list(@QueryParam("user_id") String userId, @QueryParam("state") String state,
            @QueryParam("limit") String limit, @QueryParam("after") String after, @Context SecurityContext security) {
        List<FieldError> errors = new ArrayList<>();
        if (userId == null || userId.isEmpty()) {
            errors.add(new FieldError("user_id", "is required"));
        } else if (!TextRules.isStorable(userId)) {
            errors.add(new FieldError("user_id", TextRules.NOT_STORABLE));
        }
        ReminderState stateFilter = state == null ? null : WireNamed.find(ReminderState.class, state).orElse(null);
        if (state != null && stateFilter == null) {
            errors.add(new FieldError("state", "must be one of pending, handed_off, delivering, sent, failed, "
                    + "cancelled, expired, skipped"));
        }
        Integer pageSize = PageParameters.limit(limit, errors);
        ListPosition position = PageParameters.after(after, errors);
        if (!errors.isEmpty()) {
            return Uni.createFrom().failure(ProblemException.invalid(errors));
        }
        return service.list(Caller.of(security), userId, stateFilter, position, pageSize).map(ReminderPageView::of);
    }

    /** The reminder's history, oldest first (docs/contract.md#timeline). */
    @GET
    @Path("/{id: " + ID + "}/events")
    @Operation(operationId = "getReminderEvents",
            summary = "Read a reminder's timeline", description = "Its events in the order they happened")
    public Uni<TimelinePageView> events(@PathParam("id") long id, @QueryParam("limit") String limit,
            @QueryParam("after") String after, @Context SecurityContext security) {
        List<FieldError> errors = new ArrayList<>();
        Integer pageSize = PageParameters.limit(limit, errors);
        EventPosition position = PageParameters.after(after, EventPosition::fromCursor, errors);
        if (!errors.isEmpty()) {
            return Uni.createFrom().failure(ProblemException.invalid(errors));
        }
        return timeline.page(id, Caller.of(security).visibleTenant(), position, pageSize)
                .map(page -> TimelinePageView.of(page.orElseThrow(
                () -> ProblemException.notFound("reminder " + id + " does not exist"))));
    }

    @PATCH
    @Path("/{id: " + ID + "}")
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(operationId = "updateReminder", summary = "Reschedule a reminder or change its data")
    @APIResponse(responseCode = "200", description = "The reminder as changed, with its new version",
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = ReminderView.class)))
    @APIResponse(responseCode = "409", description = "Only a pending, handed-off or failed reminder can be changed")
    public Uni<ReminderView> update(@PathParam("id") long id,
            @Valid @NotNull(message = "a JSON object is required") UpdateReminderRequest request,
            @Context SecurityContext security) {
        return service.reschedule(id, request.toChange(), Caller.of(security)).map(ReminderView::of);
    }

    @DELETE
    @Path("/{id: " + ID + "}")
    @Operation(operationId = "cancelReminder",
            summary = "Cancel a reminder", description = "Cancelling a cancelled reminder answers 200 again")
    @APIResponse(responseCode = "200", description = "The reminder, cancelled",
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = ReminderView.class)))
    @APIResponse(responseCode = "409", description = "The reminder is sent, expired or being delivered")
    public Uni<ReminderView> cancel(@PathParam("id") long id, @Context SecurityContext security) {
        return service.cancel(id, Caller.of(security)).map(ReminderView::of);
    }

    @POST
    @Path("/{id: " + ID + "}/redrive")
    @Operation(operationId = "redriveReminder",
            summary = "Send a failed reminder round again", description = "attempts is reset; the version and the"
            + " send key stay")
    @APIResponse(responseCode = "200", description = "The reminder, on its way again",
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = ReminderView.class)))
    @APIResponse(responseCode = "409", description = "Only a failed reminder can be redriven")
    public Uni<ReminderView> redrive(@PathParam("id") long id, @Context SecurityContext security) {
        return service.redrive(id, Caller.of(security)).map(ReminderView::of);
    }
}
