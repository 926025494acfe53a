package dev.tickler.sweep;

import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

import io.smallrye.mutiny.Uni;

/** POST /v1/sweep: one sweep now, for an external cron such as a Knative PingSource (SPEC §3, §6). */
@Path("/v1/sweep")
public class SweepResource {

    private final SweepService sweep;

    public SweepResource(SweepService sweep) {
        this.sweep = sweep;
    }

    @POST
    @Produces(MediaType.APPLICATION_JSON)
    public Uni<SweepReport> sweep() {
        return sweep.run();
    }
}
