package dev.tickler.sweep;

import static dev.tickler.testing.NotifierResource.notifier;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;

import dev.tickler.testing.Api;
import dev.tickler.testing.Database;
import dev.tickler.testing.OwnApplication;

/** The reconcile pass runs on its own period, so a lost push waits for it, not for the hourly sweep. */
@QuarkusTest
@TestProfile(ScheduledReconcileTest.ReconcileEverySecond.class)
class ScheduledReconcileTest {

    public static class ReconcileEverySecond implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return OwnApplication.withoutApiDocument(Map.of("tickler.sweep.enabled", "true", "tickler.sweep.every", "1h",
                    "tickler.reconcile.every", "1s"));
        }
    }

    @Inject
    Database database;

    @Test
    void lostPushIsDeliveredByTheReconcileScheduleWithoutASweep() {
        String user = Api.newUser();
        Instant longAgo = Instant.now().minus(Duration.ofMinutes(15));
        long id = database.insertReminder(user, "handed_off", longAgo, "updated_at", longAgo);

        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> Api.get(id).body("state", equalTo("sent")));
        assertThat(notifier().receivedFor(user)).hasSize(1);
    }
}
