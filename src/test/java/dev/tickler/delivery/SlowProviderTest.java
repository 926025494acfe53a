package dev.tickler.delivery;

import static dev.tickler.testing.Api.createdId;
import static dev.tickler.testing.Api.pushReminderAt;
import static dev.tickler.testing.NotifierResource.notifier;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;

import dev.tickler.testing.Api;
import dev.tickler.testing.Database;
import dev.tickler.testing.NotifierStandIn.Reply;
import dev.tickler.testing.SigningAndReconcileProfile;

/**
 * A held claim keeps its lease (docs/contract.md#states): with a provider slower than the lease allows for the backlog
 * (1.2 s a call, two at a time, twenty due together: about 12 s of sending against a 5 s lease) and the reconciler
 * looking every second, waiting for a notifier slot is never taken for a dead instance.
 */
@QuarkusTest
@TestProfile(SigningAndReconcileProfile.class)
class SlowProviderTest {

    private static final int DUE_TOGETHER = 20;

    @Inject
    Database database;

    @Test
    void aBacklogLongerThanTheLeaseIsSentOnceEachAndNeverTakenOver() {
        Instant dueAt = Instant.now().plusSeconds(2);
        List<Long> ids = new ArrayList<>();
        List<String> users = new ArrayList<>();
        for (int i = 0; i < DUE_TOGETHER; i++) {
            Map<String, Object> body = pushReminderAt(dueAt);
            String user = (String) body.get("user_id");
            notifier().script(user, Reply.okAfter(Duration.ofMillis(1_200)));
            users.add(user);
            ids.add(createdId(body));
        }

        await().atMost(Duration.ofSeconds(90)).untilAsserted(() -> assertThat(database.count(
                "SELECT count(*) FROM reminders WHERE id = ANY($1) AND state = 'sent'", (Object) ids.toArray(Long[]::new)))
                .isEqualTo(DUE_TOGETHER));

        assertThat(users).allSatisfy(user -> assertThat(notifier().receivedFor(user)).hasSize(1));
        assertThat(database.count("SELECT count(*) FROM reminder_events WHERE reminder_id = ANY($1)"
                + " AND type IN ('reconciled', 'failed')", (Object) ids.toArray(Long[]::new))).isZero();
        assertThat(database.count("SELECT max(attempts) FROM reminders WHERE id = ANY($1)",
                (Object) ids.toArray(Long[]::new))).isEqualTo(1);
        // the sends took several leases' time, so the leases were renewed while the deliveries waited
        assertThat(Api.events(ids.get(0))).extracting(event -> event.get("type")).doesNotContain("reconciled");
    }
}
