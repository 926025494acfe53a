package dev.tickler.sweep;

import static dev.tickler.testing.Api.api;
import static dev.tickler.testing.NotifierResource.notifier;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

import java.time.Duration;
import java.time.Instant;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;

import dev.tickler.testing.Api;
import dev.tickler.testing.Database;
import dev.tickler.testing.Metrics;

/**
 * POST /v1/reconcile, and the poison guard that ends a reminder whose delivery never settles
 * (docs/contract.md#sweep-and-reconcile).
 */
@QuarkusTest
class ReconcileTest {

    @Inject
    Database database;

    @Test
    void reconcileDeliversAPushThatNeverArrivedAndReportsIt() {
        String user = Api.newUser();
        Instant longAgo = Instant.now().minus(Duration.ofMinutes(15));
        long id = database.insertReminder(user, "handed_off", longAgo, "updated_at", longAgo);

        JsonPath report = reconcile();

        assertThat(report.getMap("$")).containsOnlyKeys("reconciled", "expired", "duration_ms");
        assertThat(report.getLong("reconciled")).isGreaterThanOrEqualTo(1);
        Api.get(id).body("state", equalTo("sent"));
        assertThat(notifier().receivedFor(user)).hasSize(1);
        assertThat(Api.events(id)).extracting(event -> event.get("type"))
                .containsExactly("reconciled", "attempt", "sent");
        assertThat(Api.events(id).get(0)).containsEntry("reason", "push_overdue");
    }

    @Test
    void everyTakeOverIsCounted() {
        String user = Api.newUser();
        Instant now = Instant.now();
        long id = database.insertReminder(user, "delivering", now.minus(Duration.ofHours(1)),
                "lease_until, takeovers", now.minus(Duration.ofMinutes(1)), 2);

        reconcile();

        Api.get(id).body("state", equalTo("sent"));
        assertThat(database.count("SELECT takeovers FROM reminders WHERE id = $1", id)).isEqualTo(3);
        assertThat(Api.events(id).get(0)).containsEntry("type", "reconciled")
                .containsEntry("reason", "lease_expired");
    }

    @Test
    void reminderTakenOverTooOftenWithoutSettlingIsFailedInsteadOfSentAgain() {
        String user = Api.newUser();
        Instant now = Instant.now();
        long id = database.insertReminder(user, "delivering", now.minus(Duration.ofHours(1)),
                "lease_until, takeovers", now.minus(Duration.ofMinutes(1)), 3);
        double gaveUpBefore = Metrics.value("tickler_reconcile_gave_up_total");

        reconcile();

        Api.get(id).body("state", equalTo("failed"))
                .body("last_error", containsString("taken over by the reconciler 3 times"));
        assertThat(notifier().receivedFor(user)).isEmpty();
        assertThat(Metrics.value("tickler_reconcile_gave_up_total")).isEqualTo(gaveUpBefore + 1);
        reconcile();
        Api.get(id).body("state", equalTo("failed"));
    }

    @Test
    void redriveClearsTheTakeOverCount() {
        String user = Api.newUser();
        Instant now = Instant.now();
        long id = database.insertReminder(user, "failed", now.plus(Duration.ofHours(1)), "takeovers", 3);

        api().post("/v1/reminders/" + id + "/redrive").then().statusCode(200);

        assertThat(database.count("SELECT takeovers FROM reminders WHERE id = $1", id)).isZero();
    }

    private static JsonPath reconcile() {
        return api().post("/v1/reconcile").then().statusCode(200).extract().jsonPath();
    }
}
