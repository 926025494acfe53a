package dev.tickler.sweep;

import static dev.tickler.testing.Api.api;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;

import dev.tickler.testing.Api;
import dev.tickler.testing.Database;
import dev.tickler.testing.Metrics;

/** The sweep deletes finished reminders past their keep-time (docs/contract.md#retention), and nothing else. */
@QuarkusTest
class RetentionTest {

    @Inject
    Database database;

    @Test
    void finishedRemindersPastTheirKeepTimeAreDeletedAndTheRestKept() {
        String user = Api.newUser();
        long sentLongAgo = finished(user, "sent", Duration.ofDays(31));
        long sentLately = finished(user, "sent", Duration.ofDays(29));
        long cancelledLongAgo = finished(user, "cancelled", Duration.ofDays(40));
        long expiredLongAgo = finished(user, "expired", Duration.ofDays(31));
        long skippedLongAgo = finished(user, "skipped", Duration.ofDays(31));
        long failedLongAgo = finished(user, "failed", Duration.ofDays(91));
        long failedLately = finished(user, "failed", Duration.ofDays(89));
        long pendingLongAgo = finished(user, "pending", Duration.ofDays(400));
        double deletedBefore = Metrics.value("tickler_retention_deleted_total");

        JsonPath report = api().post("/v1/sweep").then().statusCode(200).extract().jsonPath();

        assertThat(report.getLong("deleted")).isGreaterThanOrEqualTo(5);
        assertThat(exists(sentLongAgo)).isFalse();
        assertThat(exists(cancelledLongAgo)).isFalse();
        assertThat(exists(expiredLongAgo)).isFalse();
        assertThat(exists(skippedLongAgo)).isFalse();
        assertThat(exists(failedLongAgo)).isFalse();
        assertThat(exists(sentLately)).isTrue();
        assertThat(exists(failedLately)).isTrue();
        assertThat(exists(pendingLongAgo)).isTrue();
        assertThat(Metrics.value("tickler_retention_deleted_total")).isGreaterThanOrEqualTo(deletedBefore + 5);
        Api.get(sentLongAgo).statusCode(404);
    }

    @Test
    void retentionGoesOnBatchAfterBatchUntilNothingIsLeft() {
        String user = Api.newUser();
        int rows = SweepService.RETENTION_BATCH * 5 / 2;
        database.execute("INSERT INTO reminders (user_id, channel, template, fire_at, state, sent_at, updated_at)"
                + " SELECT $1, 'email', 'batches', now() - interval '41 days' + g * interval '1 second', 'sent',"
                + " now() - interval '40 days', now() - interval '40 days' FROM generate_series(1, $2) g", user, rows);

        JsonPath report = api().post("/v1/sweep").then().statusCode(200).extract().jsonPath();

        assertThat(report.getLong("deleted")).isGreaterThanOrEqualTo(rows);
        assertThat(database.count("SELECT count(*) FROM reminders WHERE user_id = $1", user)).isZero();
    }

    @Test
    void aDeletedRemindersTimelineGoesWithIt() {
        String user = Api.newUser();
        long sentLongAgo = finished(user, "sent", Duration.ofDays(31));
        long sentLately = finished(user, "sent", Duration.ofDays(29));
        for (long id : new long[] { sentLongAgo, sentLately }) {
            database.execute("INSERT INTO reminder_events (reminder_id, at, type) VALUES ($1, now(), 'sent')", id);
        }

        api().post("/v1/sweep").then().statusCode(200);

        assertThat(database.count("SELECT count(*) FROM reminder_events WHERE reminder_id = $1", sentLongAgo)).isZero();
        assertThat(database.count("SELECT count(*) FROM reminder_events WHERE reminder_id = $1", sentLately)).isOne();
    }

    private long finished(String user, String state, Duration ago) {
        Instant changed = Instant.now().minus(ago);
        // each a fire_at of its own, so that none takes another's (user_id, template, fire_at)
        return database.insertReminder(user, state, changed.minus(Duration.ofHours(1)).minusSeconds(state.length()),
                "updated_at", changed);
    }

    private boolean exists(long id) {
        return database.count("SELECT count(*) FROM reminders WHERE id = $1", id) == 1;
    }
}
