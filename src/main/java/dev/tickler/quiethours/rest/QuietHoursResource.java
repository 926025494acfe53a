package dev.tickler.quiethours.rest;

import java.util.ArrayList;
import java.util.List;

import jakarta.annotation.security.RolesAllowed;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.SecurityContext;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import io.smallrye.mutiny.Uni;

import dev.tickler.problem.FieldError;
import dev.tickler.problem.ProblemException;
import dev.tickler.quiethours.QuietHoursService;
import dev.tickler.security.Caller;
import dev.tickler.security.Roles;
import dev.tickler.validation.TextRules;

/**
 * A user's quiet hours (docs/quiet-hours.md): product keys set, read and remove them, each within its own tenant, as
 * an operator key does within its own (quiet hours are per tenant and user).
 */
@Tag(name = "Quiet hours")
@Path("/v1/users/{user_id}/quiet-hours")
@Produces(MediaType.APPLICATION_JSON)
@RolesAllowed(Roles.PRODUCT)
public class QuietHoursResource {

    /** As a reminder's user_id. */
    static final int MAX_USER_ID = 128;

    private final QuietHoursService service;

    public QuietHoursResource(QuietHoursService service) {
        this.service = service;
    }

    @PUT
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(operationId = "putQuietHours", summary = "Set a user's quiet hours, replacing any")
    @APIResponse(responseCode = "200", description = "The quiet hours as stored, defaults filled in")
    @APIResponse(responseCode = "400", description = "A field is not valid; nothing was written")
    public Uni<QuietHoursView> put(@PathParam("user_id") String userId,
            @Valid @NotNull(message = "a JSON object is required") QuietHoursRequest request,
            @Context SecurityContext security) {
        List<FieldError> problems = new ArrayList<>(userIdProblems(userId));
        problems.addAll(request.problems());
        if (!problems.isEmpty()) {
            return Uni.createFrom().failure(ProblemException.invalid(problems));
        }
        return service.put(Caller.of(security).tenant(), userId, request.toQuietHours()).map(QuietHoursView::of);
    }

    @GET
    @Operation(operationId = "getQuietHours", summary = "Read a user's quiet hours")
    @APIResponse(responseCode = "200", description = "The user's quiet hours")
    @APIResponse(responseCode = "404", description = "The user has no quiet hours")
    public Uni<QuietHoursView> get(@PathParam("user_id") String userId, @Context SecurityContext security) {
        return checked(userId).chain(() -> service.get(Caller.of(security).tenant(), userId)).map(QuietHoursView::of);
    }

    @DELETE
    @Operation(operationId = "deleteQuietHours", summary = "Remove a user's quiet hours")
    @APIResponse(responseCode = "204", description = "The user has no quiet hours (any more)")
    public Uni<Response> delete(@PathParam("user_id") String userId, @Context SecurityContext security) {
        return checked(userId).chain(() -> service.delete(Caller.of(security).tenant(), userId))
                .map(removed -> Response.noContent().build());
    }

    private static Uni<Void> checked(String userId) {
        List<FieldError> problems = userIdProblems(userId);
        return problems.isEmpty() ? Uni.createFrom().voidItem()
                : Uni.createFrom().failure(ProblemException.invalid(problems));
    }

    private static List<FieldError> userIdProblems(String userId) {
        if (userId.isEmpty() || userId.length() > MAX_USER_ID) {
            return List.of(new FieldError("user_id", "must be 1 to " + MAX_USER_ID + " characters"));
        }
        if (!TextRules.isStorable(userId)) {
            return List.of(new FieldError("user_id", TextRules.NOT_STORABLE));
        }
        return List.of();
    }
}
