package dev.tickler.sweep;

import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

import io.smallrye.mutiny.Uni;

/** One sweep or one reconcile pass now, for an external cron where instances scale to zero (SPEC §3, §6). */
@Path("/v1")
@Produces(MediaType.APPLICATION_JSON)
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
