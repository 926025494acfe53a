package dev.tickler.schedule.rest;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;

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
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import io.smallrye.mutiny.Uni;

import dev.tickler.problem.FieldError;
import dev.tickler.problem.ProblemException;
import dev.tickler.reminder.rest.PageParameters;
import dev.tickler.schedule.ScheduleService;
import dev.tickler.security.Caller;
import dev.tickler.security.Roles;
import dev.tickler.validation.TextRules;

/** Recurring reminders for product services (see docs/schedules.md). */
@Tag(name = "Schedules")
@Path("/v1/schedules")
@Produces(MediaType.APPLICATION_JSON)
@RolesAllowed(Roles.PRODUCT)
public class ScheduleResource {

    /** Ids in paths are plain ASCII digits without sign or leading zeros; anything else names no schedule (404). */
    static final String ID = "[1-9][0-9]{0,18}";
    static final int MAX_PREVIEW = 100;
    static final int DEFAULT_PREVIEW = 10;

    private static final String INVALID = "Invalid body or parameter: problem+json with a field error for each";
    private static final String NOT_FOUND = "No such schedule";
    private static final String ENDED = "The schedule has ended";

    private final ScheduleService service;

    public ScheduleResource(ScheduleService service) {
        this.service = service;
    }

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(operationId = "createSchedule",
            summary = "Create a schedule: a recurring reminder whose occurrences are ordinary reminders")
    @APIResponse(responseCode = "201",
            description = "Created, with its Location; its next occurrences exist as reminders",
            content = @Content(mediaType = MediaType.APPLICATION_JSON,
                    schema = @Schema(implementation = ScheduleView.class)))
    @APIResponse(responseCode = "200", description = "Registered before with this user_id, template, rrule, start, tz"
            + " and body: the existing schedule", content = @Content(mediaType = MediaType.APPLICATION_JSON,
                    schema = @Schema(implementation = ScheduleView.class)))
    @APIResponse(responseCode = "400", description = INVALID)
    @APIResponse(responseCode = "409", description = "Registered before with this user_id, template, rrule, start and"
            + " tz and another body (registration-differs, naming the fields), or that schedule has ended"
            + " (registration-cancelled)")
    public Uni<Response> create(@Valid @NotNull(message = "a JSON object is required") CreateScheduleRequest request,
            @Context SecurityContext security) {
        return service.create(request.toNewSchedule(), Caller.of(security)).map(registration -> Response
                .status(registration.created() ? Response.Status.CREATED : Response.Status.OK)
                .location(URI.create("/v1/schedules/" + registration.schedule().id()))
                .entity(ScheduleView.of(registration.schedule())).build());
    }

    @GET
    @Path("/{id: " + ID + "}")
    @Operation(operationId = "getSchedule", summary = "Read a schedule")
    @APIResponse(responseCode = "200", description = "The schedule")
    @APIResponse(responseCode = "404", description = NOT_FOUND)
    public Uni<ScheduleView> get(@PathParam("id") long id, @Context SecurityContext security) {
        return service.get(id, Caller.of(security)).map(ScheduleView::of);
    }

    @GET
    @Operation(operationId = "listSchedules", summary = "List a user's schedules, oldest first, keyset-paginated")
    @APIResponse(responseCode = "200", description = "{items, next}: pass next back as after for the following page")
    @APIResponse(responseCode = "400", description = INVALID)
    public Uni<SchedulePageView> list(@QueryParam("user_id") String userId, @QueryParam("limit") String limit,
            @QueryParam("after") String after, @Context SecurityContext security) {
        List<FieldError> errors = new ArrayList<>();
        if (userId == null || userId.isEmpty()) {
            errors.add(new FieldError("user_id", "is required"));
        } else if (!TextRules.isStorable(userId)) {
            errors.add(new FieldError("user_id", TextRules.NOT_STORABLE));
        }
        Integer pageSize = PageParameters.limit(limit, errors);
        Long afterId = PageParameters.after(after, SchedulePageView::fromCursor, errors);
        if (!errors.isEmpty()) {
            return Uni.createFrom().failure(ProblemException.invalid(errors));
        }
        return service.list(Caller.of(security), userId, afterId, pageSize).map(SchedulePageView::of);
    }

    @GET
    @Path("/{id: " + ID + "}/preview")
    @Operation(operationId = "previewSchedule",
            summary = "The next occurrences from now, each with its local time and DST note")
    @APIResponse(responseCode = "200", description = "{items: [{occurrence, fire_at, fire_at_local, dst}]}")
    @APIResponse(responseCode = "400", description = INVALID)
    @APIResponse(responseCode = "404", description = NOT_FOUND)
    public Uni<PreviewView> preview(@PathParam("id") long id,
            @Parameter(description = "How many occurrences, 1 to " + MAX_PREVIEW + "; " + DEFAULT_PREVIEW
                    + " when left out", schema = @Schema(type = SchemaType.INTEGER, minimum = "1",
                    maximum = "" + MAX_PREVIEW, defaultValue = "" + DEFAULT_PREVIEW)) @QueryParam("count") String count,
            @Context SecurityContext security) {
        Integer size = PageParameters.count(count, DEFAULT_PREVIEW, MAX_PREVIEW);
        if (size == null) {
            return Uni.createFrom().failure(ProblemException.invalid("count",
                    "must be a whole number from 1 to " + MAX_PREVIEW));
        }
        return service.preview(id, size, Caller.of(security)).map(PreviewView::of);
    }

    @PATCH
    @Path("/{id: " + ID + "}")
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(operationId = "updateSchedule",
            summary = "Change a schedule's rule, start, zone, policies or data; waiting occurrences are replaced")
    @APIResponse(responseCode = "200", description = "The changed schedule")
    @APIResponse(responseCode = "400", description = INVALID)
    @APIResponse(responseCode = "404", description = NOT_FOUND)
    @APIResponse(responseCode = "409", description = ENDED)
    public Uni<ScheduleView> update(@PathParam("id") long id,
            @Valid @NotNull(message = "a JSON object is required") UpdateScheduleRequest request,
            @Context SecurityContext security) {
        return service.change(id, request.toChange(), Caller.of(security)).map(ScheduleView::of);
    }

    @DELETE
    @Path("/{id: " + ID + "}")
    @Operation(operationId = "deleteSchedule",
            summary = "End a schedule and cancel its unsent occurrences; repeating it changes nothing")
    @APIResponse(responseCode = "200", description = "The schedule, ended")
    @APIResponse(responseCode = "404", description = NOT_FOUND)
    public Uni<ScheduleView> delete(@PathParam("id") long id, @Context SecurityContext security) {
        return service.delete(id, Caller.of(security)).map(ScheduleView::of);
    }

    @POST
    @Path("/{id: " + ID + "}/pause")
    @Operation(operationId = "pauseSchedule",
            summary = "Pause a schedule: its waiting occurrences are cancelled and nothing more is created")
    @APIResponse(responseCode = "200", description = "The schedule, paused (again 200 when already paused)")
    @APIResponse(responseCode = "404", description = NOT_FOUND)
    @APIResponse(responseCode = "409", description = ENDED)
    public Uni<ScheduleView> pause(@PathParam("id") long id, @Context SecurityContext security) {
        return service.pause(id, Caller.of(security)).map(ScheduleView::of);
    }

    @POST
    @Path("/{id: " + ID + "}/resume")
    @Operation(operationId = "resumeSchedule",
            summary = "Resume a paused schedule; its catch_up decides about what was missed meanwhile")
    @APIResponse(responseCode = "200", description = "The schedule, active (again 200 when already active)")
    @APIResponse(responseCode = "404", description = NOT_FOUND)
    @APIResponse(responseCode = "409", description = ENDED)
    public Uni<ScheduleView> resume(@PathParam("id") long id, @Context SecurityContext security) {
        return service.resume(id, Caller.of(security)).map(ScheduleView::of);
    }
}
