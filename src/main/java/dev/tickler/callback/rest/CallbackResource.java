package dev.tickler.callback.rest;

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
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import io.smallrye.mutiny.Uni;

import dev.tickler.callback.CallbackPosition;
import dev.tickler.callback.CallbackService;
import dev.tickler.problem.FieldError;
import dev.tickler.problem.ProblemException;
import dev.tickler.reminder.rest.PageParameters;
import dev.tickler.security.Caller;
import dev.tickler.security.Roles;

/** The caller's tenant's delivery callbacks (docs/api.md, "Delivery callbacks"): what was sent, and sending again. */
@Tag(name = "Callbacks")
@Path("/v1/callbacks")
@Produces(MediaType.APPLICATION_JSON)
@RolesAllowed(Roles.PRODUCT)
public class CallbackResource {

    private final CallbackService service;

    public CallbackResource(CallbackService service) {
        this.service = service;
    }

    @GET
    @Operation(operationId = "listCallbacks", summary = "List the tenant's callback events",
            description = "Oldest first, by id; each with its tries so far and whether it was delivered. next is the"
                    + " cursor for the following page, null on the last")
    public Uni<CallbackPageView> list(@QueryParam("limit") String limit, @QueryParam("after") String after,
            @Context SecurityContext security) {
        List<FieldError> errors = new ArrayList<>();
        Integer pageSize = PageParameters.limit(limit, errors);
        CallbackPosition position = PageParameters.after(after, CallbackPosition::fromCursor, errors);
        if (!errors.isEmpty()) {
            return Uni.createFrom().failure(ProblemException.invalid(errors));
        }
        return service.list(Caller.of(security), position, pageSize).map(CallbackPageView::of);
    }

    /** How many events were sent again, and whether a redelivery after a cursor left more after them. */
    public record RedeliveredView(int redelivered, boolean more) {
    }

    @POST
    @Path("/redeliver")
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(operationId = "redeliverCallbacks", summary = "Send callback events again",
            description = "The given events, or up to 1,000 after a cursor, are due again at once with the same"
                    + " webhook-id; events of another tenant or past their retention are left alone")
    @APIResponse(responseCode = "200", description = "How many events are due again",
            content = @Content(mediaType = MediaType.APPLICATION_JSON,
                    schema = @Schema(implementation = RedeliveredView.class)))
    public Uni<RedeliveredView> redeliver(@NotNull(message = "a JSON object is required") RedeliverRequest request,
            @Context SecurityContext security) {
        List<FieldError> errors = request.problems();
        if (!errors.isEmpty()) {
            return Uni.createFrom().failure(ProblemException.invalid(errors));
        }
        Caller caller = Caller.of(security);
        Uni<CallbackService.Redelivered> redelivered = request.ids() != null ? service.redeliver(caller, request.ids())
                : service.redeliverAfter(caller, CallbackPosition.fromCursor(request.after()).orElseThrow());
        return redelivered.map(done -> new RedeliveredView(done.redelivered(), done.more()));
    }
}
