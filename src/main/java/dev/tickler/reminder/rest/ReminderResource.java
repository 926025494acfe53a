package dev.tickler.reminder.rest;

import java.net.URI;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;
import java.util.Set;

import jakarta.annotation.security.RolesAllowed;
import jakarta.validation.ConstraintViolation;
import jakarta.validation.Valid;
import jakarta.validation.Validator;
import jakarta.validation.constraints.NotNull;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PATCH;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
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
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import com.fasterxml.jackson.databind.JsonNode;

import io.smallrye.mutiny.Uni;

import dev.tickler.ledger.NewReminder;
import dev.tickler.ledger.Registration;
import dev.tickler.ledger.ReminderState;
import dev.tickler.problem.FieldError;
import dev.tickler.problem.Problem;
import dev.tickler.problem.ProblemException;
import dev.tickler.problem.ProblemMappers;
import dev.tickler.reminder.Cancellation;
import dev.tickler.reminder.ListFilter;
import dev.tickler.reminder.ListPosition;
import dev.tickler.reminder.ReminderService;
import dev.tickler.security.Caller;
import dev.tickler.security.Roles;
import dev.tickler.timeline.EventPosition;
import dev.tickler.timeline.Timeline;
import dev.tickler.timeline.TimelinePageView;
import dev.tickler.validation.ReminderNames;
import dev.tickler.validation.TextRules;

/** The registration API for product services (docs/contract.md#registration-api, #keys-and-roles). */
@Tag(name = "Reminders")
@Path("/v1/reminders")
@Produces(MediaType.APPLICATION_JSON)
@RolesAllowed(Roles.PRODUCT)
public class ReminderResource {

    /** Ids in paths are plain ASCII digits without sign or leading zeros; anything else names no reminder (404). */
    static final String ID = "[1-9][0-9]{0,18}";

    private final ReminderService service;
    private final BatchItems batchItems;
    private final Timeline timeline;
    private final Validator validator;

    public ReminderResource(ReminderService service, BatchItems batchItems, Timeline timeline, Validator validator) {
        this.service = service;
        this.batchItems = batchItems;
        this.timeline = timeline;
        this.validator = validator;
    }

    /**
     * 201 with Location for a new reminder; 200 with the existing one for a repeat of the same body under the same
     * (user_id, template, fire_at) or key; 409 for a repeat with another body, or of a cancelled reminder.
     */
    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(operationId = "createReminder", summary = "Register a reminder")
    @APIResponse(responseCode = "201", description = "Registered; Location names the new reminder",
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = ReminderView.class)))
    @APIResponse(responseCode = "200", description = "Registered before with this user_id, template and fire_at (or"
            + " this key) and the same body: the existing reminder", content = @Content(
                    mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = ReminderView.class)))
    @APIResponse(responseCode = "409", description = "Registered before with another body (registration-differs: the"
            + " fields in errors, the reminder in reminder_id), or registered before and cancelled since"
            + " (registration-cancelled)")
    public Uni<Response> create(@Valid @NotNull(message = "a JSON object is required") CreateReminderRequest request,
            @Context SecurityContext security) {
        return service.register(request.toNewReminder(), Caller.of(security)).map(ReminderResource::registered);
    }

    private static Response registered(Registration registration) {
        ReminderView view = ReminderView.of(registration.reminder());
        return Response.status(registration.created() ? Response.Status.CREATED : Response.Status.OK)
                .location(URI.create("/v1/reminders/" + view.id()))
                .entity(view)
                .build();
    }

    /**
     * Creates, keeps or replaces the key's live reminder (docs/contract.md#keyed-reminders-and-cancel-by-filter): 201
     * with Location for a new one, 200 for one kept (same body) or replaced (another body, a new version).
     */
    @PUT
    @Path("/by-key/{key}")
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(operationId = "putReminderByKey", summary = "Register, keep or replace the reminder of a key",
            description = "No live reminder with the key: one is created. A live one with the same body is left"
            + " alone (same version, no hand-off); one with another body has every field replaced, as a PATCH of"
            + " them all (new version, handed off again)")
    @APIResponse(responseCode = "201", description = "Created; Location names the new reminder",
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = ReminderView.class)))
    @APIResponse(responseCode = "200", description = "The key's live reminder, kept as it was or replaced by the body",
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = ReminderView.class)))
    @APIResponse(responseCode = "409", description = "The key's live reminder is being delivered")
    public Uni<Response> put(@PathParam("key") String key, CreateReminderRequest request,
            @Context SecurityContext security) {
        List<FieldError> errors = new ArrayList<>();
        if (!ReminderNames.isKey(key)) {
            errors.add(new FieldError("key", ReminderNames.KEY_RULE));
        }
        if (request == null) {
            errors.add(new FieldError("body", "a JSON object is required"));
        } else {
            Set<ConstraintViolation<CreateReminderRequest>> violations = validator.validate(request);
            if (!violations.isEmpty()) {
                errors.addAll(ProblemMappers.problemFor(violations).errors());
            }
            if (request.key() != null && !request.key().equals(key)) {
                errors.add(new FieldError("key", "must be the path's key, or left out"));
            }
        }
        if (!errors.isEmpty()) {
            return Uni.createFrom().failure(ProblemException.invalid(errors));
        }
        return service.put(request.toNewReminder().withKey(key), Caller.of(security)).map(ReminderResource::registered);
    }

    @GET
    @Path("/by-key/{key}")
    @Operation(operationId = "getReminderByKey", summary = "Read the reminder of a key",
            description = "The key's live reminder, else the one of its reminders that finished last")
    @APIResponse(responseCode = "200", description = "The key's live reminder, else the one that finished last",
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = ReminderView.class)))
    @APIResponse(responseCode = "404", description = "No reminder of the caller's tenant has this key")
    public Uni<ReminderView> getByKey(@PathParam("key") String key, @Context SecurityContext security) {
        return validKey(key).chain(() -> service.getByKey(key, Caller.of(security))).map(ReminderView::of);
    }

    @DELETE
    @Path("/by-key/{key}")
    @Operation(operationId = "cancelReminderByKey", summary = "Cancel the live reminder of a key")
    @APIResponse(responseCode = "200", description = "The key's reminder, cancelled; the key is free again",
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = ReminderView.class)))
    @APIResponse(responseCode = "404", description = "No live reminder of the caller's tenant has this key")
    @APIResponse(responseCode = "409", description = "The key's reminder is being delivered")
    public Uni<ReminderView> cancelByKey(@PathParam("key") String key, @Context SecurityContext security) {
        return validKey(key).chain(() -> service.cancelByKey(key, Caller.of(security))).map(ReminderView::of);
    }

    private static Uni<Void> validKey(String key) {
        return ReminderNames.isKey(key) ? Uni.createFrom().voidItem()
                : Uni.createFrom().failure(ProblemException.invalid("key", ReminderNames.KEY_RULE));
    }

    /**
     * Cancels the user's live reminders that match (docs/contract.md#keyed-reminders-and-cancel-by-filter), within the
     * caller's tenant, at most 10,000 a call.
     */
    @POST
    @Path("/cancel")
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(operationId = "cancelMatchingReminders", summary = "Cancel a user's reminders that match a filter",
            description = "user_id is required; template, tag and key_prefix narrow it and must all hold. Delivering"
            + " reminders are counted, not cancelled; more is true when the call stopped at 10,000")
    @APIResponse(responseCode = "200", description = "How many were cancelled, how many are delivering, and whether"
            + " more are left")
    public Uni<Cancellation> cancelMatching(
            @Valid @NotNull(message = "a JSON object is required") CancelRemindersRequest request,
            @Context SecurityContext security) {
        return service.cancelMatching(request.toFilter(), Caller.of(security));
    }

    /** The answer to a batch registration: one result per item, in order. */
    public record BatchResponse(@Schema(required = true) List<BatchResult> items) {
    }

    /**
     * How the API document describes a batch's body. The body is read as a tree ({@link BatchItems}), so that one bad
     * item is that item's 400 and not the batch's.
     */
    @Schema(examples = """
            {"items": [
              {"user_id": "u_4412", "channel": "email", "template": "trial_ending", "fire_at": "2030-12-01T09:00:00Z"},
              {"user_id": "u_4413", "channel": "sms", "template": "trial_ending", "local_time": "2030-12-01T09:00",
               "tz": "Europe/Berlin"}]}""")
    record BatchRequest(@Schema(required = true, maxItems = BatchItems.MAX_ITEMS) List<CreateReminderRequest> items) {
    }

    /**
     * Up to 1,000 registrations in one call (docs/contract.md#batch-registration): each item answered as the single
     * POST would answer it, one bad item never failing the others; always 200 when the body itself is {"items": [...]}.
     */
    @POST
    @Path("/batch")
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(operationId = "createReminderBatch", summary = "Register up to 1,000 reminders in one call")
    public Uni<BatchResponse> registerBatch(
            @RequestBody(required = true, content = @Content(mediaType = MediaType.APPLICATION_JSON,
                    schema = @Schema(implementation = BatchRequest.class))) JsonNode body,
            @Context SecurityContext security) {
        List<BatchItems.Item> items = batchItems.read(body);
        List<NewReminder> valid = items.stream().map(BatchItems.Item::reminder).filter(Objects::nonNull).toList();
        return service.registerAll(valid, Caller.of(security)).map(answers -> {
            Iterator<ReminderService.BatchAnswer> next = answers.iterator();
            List<BatchResult> results = new ArrayList<>(items.size());
            for (BatchItems.Item item : items) {
                results.add(item.problem() != null ? refused(item.problem()) : result(next.next()));
            }
            return new BatchResponse(results);
        });
    }

    private static BatchResult result(ReminderService.BatchAnswer answer) {
        return answer.refusal() != null ? refused(answer.refusal()) : result(answer.registration());
    }

    private static BatchResult refused(Problem problem) {
        return new BatchResult(problem.status(), null, problem);
    }

    private static BatchResult result(Registration registration) {
        return new BatchResult(registration.created() ? 201 : 200, ReminderView.of(registration.reminder()), null);
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
            + " for the following page, null on the last. state takes several states, comma-separated or repeated")
    public Uni<ReminderPageView> list(@Parameter(required = true) @QueryParam("user_id") String userId,
            @Parameter(schema = @Schema(type = SchemaType.ARRAY, implementation = ReminderState.class))
            @QueryParam("state") List<String> state,
            @QueryParam("template") String template, @QueryParam("tag") String tag, @QueryParam("limit") String limit,
            @QueryParam("after") String after, @Context SecurityContext security) {
        List<FieldError> errors = new ArrayList<>();
        if (userId == null || userId.isEmpty()) {
            errors.add(new FieldError("user_id", "is required"));
        } else if (!TextRules.isStorable(userId)) {
            errors.add(new FieldError("user_id", TextRules.NOT_STORABLE));
        }
        Set<ReminderState> states = StateParameter.states(state, errors);
        if (template != null && !ReminderNames.isTemplate(template)) {
            errors.add(new FieldError("template", ReminderNames.TEMPLATE_RULE));
        }
        if (tag != null && !ReminderNames.isTag(tag)) {
            errors.add(new FieldError("tag", ReminderNames.TAG_RULE));
        }
        Integer pageSize = PageParameters.limit(limit, errors);
        ListPosition position = PageParameters.after(after, errors);
        if (!errors.isEmpty()) {
            return Uni.createFrom().failure(ProblemException.invalid(errors));
        }
        return service.list(Caller.of(security), userId, new ListFilter(states, template, tag), position,
                pageSize).map(ReminderPageView::of);
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
