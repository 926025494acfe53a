package dev.tickler.sweep;

import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

import io.smallrye.mutiny.Uni;

import dev.tickler.security.Roles;

/** One sweep or one reconcile pass now, for an external cron where instances scale to zero (SPEC §3, §6, §11). */
@Path("/v1")
@Produces(MediaType.APPLICATION_JSON)
@RolesAllowed(Roles.OPERATOR)
public class SweepResource {

    private final SweepService sweep;

    public SweepResource(SweepService sweep) {
        this.sweep = sweep;
    }

    @POST
    @Path("/sweep")
    public Uni<SweepReport> sweep() {
        return sweep.run();
    }

    @POST
    @Path("/reconcile")
    public Uni<ReconcileReport> reconcile() {
        return sweep.reconcileNow();
    }
}
