package dev.tickler.sweep;

import static dev.tickler.testing.Api.publishedFor;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;

import dev.tickler.testing.Api;
import dev.tickler.testing.Database;
import dev.tickler.testing.PollingAndSweepProfile;

/** With tickler.sweep.enabled the scheduler runs the sweep every tickler.sweep.every, without any call. */
@QuarkusTest
@TestProfile(PollingAndSweepProfile.class)
class ScheduledSweepTest {

    @Inject
    Database database;

    @Test
    void parkedReminderInsideTheWindowIsHandedOffByTheSchedule() {
        List<Long> ids = database.insertParked(Api.newUser(), 2, Instant.now().plus(Duration.ofDays(2)));

        for (long id : ids) {
            await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> Api.get(id).body("state", equalTo("handed_off")));
            assertThat(publishedFor(id)).hasSize(1);
        }
    }
}
