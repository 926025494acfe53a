package dev.tickler.testing;

import java.util.Map;

import io.quarkus.test.junit.QuarkusTestProfile;

/**
 * Pushes signed (tickler.push.signing-secret), the reconcile pass on its own schedule every second while the sweep's
 * stays hourly, and short leases (5 s) against a notifier taken two calls at a time: one application for
 * {@code SignedPushTest}, {@code ScheduledReconcileTest}, {@code SlowProviderTest} and {@code FairTurnsTest}, because
 * every profile costs the suite a build and a start; a reconciled push comes back signed like any other. Beside the
 * usual keys (tenant default) is one of the tenant {@code rush}.
 */
public class SigningAndReconcileProfile implements QuarkusTestProfile {

    public static final String RUSH_KEY = "rush-s3cr3t-key-0001";

    @Override
    public Map<String, String> getConfigOverrides() {
        return OwnApplication.withoutApiDocument(Map.of(
                "tickler.push.signing-secret", InfraiEmulatorResource.SIGNING_SECRET,
                "tickler.sweep.enabled", "true", "tickler.sweep.every", "1h", "tickler.reconcile.every", "1s",
                "tickler.delivery.lease", "PT5S", "tickler.notify.concurrency", "2",
                "tickler.api.keys", Api.API_KEY + "," + Api.SECOND_API_KEY + ",rush/1=" + RUSH_KEY));
    }
}
