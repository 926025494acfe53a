package dev.tickler.operator.rest;

import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import io.smallrye.mutiny.Uni;

import dev.tickler.operator.OverviewService;
import dev.tickler.security.Roles;

/** GET /v1/admin/overview (docs/contract.md#operator-api): the state of every reminder at a glance. */
@Tag(name = "Operators")
@Path("/v1/admin")
@RolesAllowed(Roles.OPERATOR)
@Produces(MediaType.APPLICATION_JSON)
public class OverviewResource {

    private final OverviewService service;

    public OverviewResource(OverviewService service) {
        this.service = service;
    }

    @GET
    @Path("/overview")
    @Operation(operationId = "getOverview", summary = "Counts, dispatch lag, lateness and the 48-hour forecast")
    public Uni<OverviewView> overview() {
        return service.overview().map(OverviewView::of);
    }
}
