package dev.tickler.sweep;

import static dev.tickler.testing.NotifierResource.notifier;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;

import java.time.Duration;
import java.time.Instant;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;

import dev.tickler.testing.Api;
import dev.tickler.testing.Database;
import dev.tickler.testing.SigningAndReconcileProfile;

/** The reconcile pass runs on its own period, so a lost push waits for it, not for the hourly sweep. */
@QuarkusTest
@TestProfile(SigningAndReconcileProfile.class)
class ScheduledReconcileTest {

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
