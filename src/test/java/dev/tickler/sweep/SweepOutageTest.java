package dev.tickler.sweep;

import static dev.tickler.testing.Api.api;
import static dev.tickler.testing.InfraiEmulatorResource.emulator;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import jakarta.inject.Inject;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;

import dev.tickler.testing.Api;
import dev.tickler.testing.Database;

/**
 * One sweep tries a parked row at most once (docs/contract.md#sweep-and-reconcile): a failed publish waits for the next
 * run, and the rows behind it are still handed off. The rows are due for hours, so they come first in the sweep's order.
 */
@QuarkusTest
class SweepOutageTest {

    private static final int PARKED = 2_100;

    @Inject
    Database database;

    @AfterEach
    void queueBack() {
        emulator().clearFaults();
    }

    @Test
    void whileEveryPublishFailsOneRunTriesEachRowOnceAndTheNextRunHandsThemOff() {
        String user = Api.newUser();
        Long[] ids = database.insertParked(user, PARKED, Instant.now().minus(Duration.ofDays(2))).toArray(Long[]::new);
        emulator().failNextPublishes(1_000_000, 503, "QUEUE_UNAVAILABLE");

        JsonPath outage = sweep();

        assertThat(outage.getLong("handed_off")).isZero();
        assertThat(outage.getLong("failed_publish")).isPositive();
        assertThat(mostPublishFailuresOfOneRow(ids)).isEqualTo(1);
        assertThat(database.count("SELECT count(*) FROM reminders WHERE id = ANY($1) AND state = 'pending'",
                (Object) ids)).isEqualTo(PARKED);

        emulator().clearFaults();
        sweep();

        assertThat(database.count("SELECT count(*) FROM reminders WHERE id = ANY($1) AND state = 'handed_off'",
                (Object) ids)).isEqualTo(PARKED);
        assertThat(mostPublishFailuresOfOneRow(ids)).isEqualTo(1);
    }

    @Test
    void aPartialOutageLeavesTheFailedRowsForTheNextRunAndHandsOffEveryOther() {
        String user = Api.newUser();
        List<Long> parked = database.insertParked(user, PARKED, Instant.now().minus(Duration.ofDays(3)));
        Long[] ids = parked.toArray(Long[]::new);
        emulator().failNextPublishes(150, 503, "QUEUE_UNAVAILABLE");

        JsonPath partial = sweep();

        long stillPending = database.count("SELECT count(*) FROM reminders WHERE id = ANY($1) AND state = 'pending'",
                (Object) ids);
        assertThat(stillPending).isPositive().isLessThanOrEqualTo(150);
        assertThat(partial.getLong("failed_publish")).isEqualTo(150);
        assertThat(database.count("SELECT count(*) FROM reminders WHERE id = ANY($1) AND state = 'handed_off'",
                (Object) ids)).isEqualTo(PARKED - stillPending);
        // each row that failed waits for the next run: it was not tried again, and its failure is its only publish
        assertThat(database.count("SELECT count(*) FROM reminders r WHERE id = ANY($1) AND state = 'pending' AND"
                + " (SELECT count(*) FROM reminder_events e WHERE e.reminder_id = r.id AND e.type = 'publish_failed') = 1"
                + " AND NOT EXISTS (SELECT 1 FROM reminder_events e WHERE e.reminder_id = r.id AND e.type = 'published')",
                (Object) ids)).isEqualTo(stillPending);

        sweep();

        assertThat(database.count("SELECT count(*) FROM reminders WHERE id = ANY($1) AND state = 'handed_off'",
                (Object) ids)).isEqualTo(PARKED);
    }

    private long mostPublishFailuresOfOneRow(Long[] ids) {
        return database.count("SELECT coalesce(max(failures), 0) FROM (SELECT count(*) AS failures FROM reminder_events"
                + " WHERE reminder_id = ANY($1) AND type = 'publish_failed' GROUP BY reminder_id) AS per_row",
                (Object) ids);
    }

    private static JsonPath sweep() {
        return api().post("/v1/sweep").then().statusCode(200).extract().jsonPath();
    }
}
