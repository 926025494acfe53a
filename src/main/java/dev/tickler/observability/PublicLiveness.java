package dev.tickler.observability;

import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;

import org.eclipse.microprofile.config.inject.ConfigProperty;

import io.smallrye.health.SmallRyeHealthReporter;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

/**
 * The liveness check on the public port as well, at the path it has on the management port: Knative rewrites a
 * liveness probe to the serving port (unless multi-container probing is on) and Cloud Run probes the container port,
 * so a probe of the management port would kill every instance (docs/deploying.md, "Probes"). It answers what the
 * management port's {@code /q/health/live} answers, touches no database, and is not a request that wakes the gauges.
 * Readiness stays on the management port only: it asks Postgres, which nobody outside should be able to make us do.
 */
@Singleton
public class PublicLiveness {

    /** The path on both ports. */
    public static final String PATH = "/q/health/live";

    private final SmallRyeHealthReporter reporter;
    private final boolean managementEnabled;

    public PublicLiveness(SmallRyeHealthReporter reporter,
            @ConfigProperty(name = "quarkus.management.enabled", defaultValue = "false") boolean managementEnabled) {
        this.reporter = reporter;
        this.managementEnabled = managementEnabled;
    }

    void install(@Observes Router router) {
        // without a management interface Quarkus serves the path on this port itself
        if (managementEnabled) {
            router.get(PATH).order(Integer.MIN_VALUE + 1).handler(this::answer);
        }
    }

    private void answer(RoutingContext context) {
        reporter.getLivenessAsync().subscribe().with(
                health -> context.response().setStatusCode(health.isDown() ? 503 : 200)
                        .putHeader("Content-Type", "application/json").end(health.getPayload().toString()),
                context::fail);
    }
}
