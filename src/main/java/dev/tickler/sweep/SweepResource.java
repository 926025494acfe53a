package dev.tickler.sweep;

import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.SecurityContext;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import org.jboss.logging.Logger;

import io.smallrye.mutiny.Uni;

import dev.tickler.security.Caller;
import dev.tickler.security.Roles;

/**
 * One sweep or one reconcile pass now, for an external cron where instances scale to zero
 * (docs/contract.md#sweep-and-reconcile; operator keys).
 */
@Tag(name = "Operators")
@Path("/v1")
@Produces(MediaType.APPLICATION_JSON)
@RolesAllowed(Roles.OPERATOR)
public class SweepResource {

    private static final Logger LOG = Logger.getLogger(SweepResource.class);

    private final SweepService sweep;

    public SweepResource(SweepService sweep) {
        this.sweep = sweep;
    }

    @POST
    @Path("/sweep")
    @Operation(operationId = "runSweep",
            summary = "Run one sweep now", description = "Hands off the pending reminders that entered the queue's"
            + " window; for an external scheduler")
    public Uni<SweepReport> sweep(@Context SecurityContext security) {
        LOG.infof("sweep requested by %s", Caller.of(security));
        return sweep.run();
    }

    @POST
    @Path("/reconcile")
    @Operation(operationId = "runReconcile",
            summary = "Run one reconcile pass now", description = "Delivers reminders whose push never came back"
            + " or whose claim's lease expired; for an external scheduler")
    public Uni<ReconcileReport> reconcile(@Context SecurityContext security) {
        LOG.infof("reconcile requested by %s", Caller.of(security));
        return sweep.reconcileNow();
    }
}
