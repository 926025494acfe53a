package dev.tickler.schedule;

import static dev.tickler.schedule.Schedules.schedule;
import static dev.tickler.testing.Api.api;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;

import jakarta.inject.Inject;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;

import dev.tickler.testing.Database;

/**
 * Every way an occurrence ends makes room for its schedule's next one at once (docs/schedules.md), not at the next
 * sweep's backstop: here a quiet-hours skip at hand-off and an expiry found by the reconcile pass.
 */
@QuarkusTest
class OccurrenceEndingsTest {

    @Inject
    Database database;

    private final Schedules.Created created = new Schedules.Created();

    @AfterEach
    void endSchedules() {
        created.endAll();
    }

    @Test
    void occurrencesSkippedByQuietHoursAtHandOffAreFollowedUntilTwoWaitBeyondTheQueuesWeek() {
        Map<String, Object> body = dailyFromTomorrowAtNine();
        String user = (String) body.get("user_id");
        api().body(Map.of("tz", "UTC", "policy", "skip", "windows", List.of(Map.of("start", "08:00", "end", "10:00"))))
                .put("/v1/users/" + user + "/quiet-hours").then().statusCode(200);

        long id = created.create(body);

        // every occurrence within the queue's week was handed off inside the window and skipped; two wait beyond it
        assertThat(database.count("SELECT count(*) FROM reminders WHERE schedule_id = $1 AND state = 'skipped'", id))
                .isGreaterThanOrEqualTo(6);
        assertThat(database.count("SELECT count(*) FROM reminders WHERE schedule_id = $1 AND state = 'pending'"
                + " AND fire_at > now() + interval '6 days'", id)).isEqualTo(2);
        assertThat(database.count("SELECT count(*) FROM reminders WHERE schedule_id = $1 AND state NOT IN"
                + " ('skipped', 'pending')", id)).isZero();
    }

    @Test
    void anOccurrenceExpiredByTheReconcilePassIsFollowedByTheNext() {
        Map<String, Object> body = dailyFromTomorrowAtNine();
        body.put("expires_after", "PT1H");
        long id = created.create(body);
        assertThat(unfinished(id)).isEqualTo(2);
        database.execute("UPDATE reminders SET expires_at = now() - interval '1 minute' WHERE schedule_id = $1"
                + " AND occurrence = 1", id);

        api().post("/v1/reconcile").then().statusCode(200);

        assertThat(database.text("SELECT state FROM reminders WHERE schedule_id = $1 AND occurrence = 1", id))
                .isEqualTo("expired");
        assertThat(unfinished(id)).isEqualTo(2);
        assertThat(database.count("SELECT max(occurrence) FROM reminders WHERE schedule_id = $1", id)).isEqualTo(3);
    }

    private long unfinished(long scheduleId) {
        return database.count("SELECT count(*) FROM reminders WHERE schedule_id = $1"
                + " AND state IN ('pending', 'handed_off', 'delivering')", scheduleId);
    }

    private static Map<String, Object> dailyFromTomorrowAtNine() {
        LocalDate tomorrow = LocalDate.ofInstant(Instant.now().plus(Duration.ofDays(1)), ZoneOffset.UTC);
        return schedule(tomorrow + "T09:00", "UTC", "FREQ=DAILY");
    }
}
