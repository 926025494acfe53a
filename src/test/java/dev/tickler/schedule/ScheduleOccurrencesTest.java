package dev.tickler.schedule;

import static dev.tickler.schedule.Schedules.occurrences;
import static dev.tickler.schedule.Schedules.schedule;
import static dev.tickler.schedule.Schedules.states;
import static dev.tickler.testing.Api.api;
import static dev.tickler.testing.NotifierResource.notifier;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import jakarta.inject.Inject;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;

import dev.tickler.testing.Database;
import dev.tickler.testing.FutureDates;
import dev.tickler.testing.NotifierStandIn.Received;

/**
 * Occurrences are ordinary reminders: delivered through the emulator's push and the notifier stand-in with their
 * send key, and each one that ends makes the schedule create the next, once however many top-ups race.
 */
@QuarkusTest
class ScheduleOccurrencesTest {

    private static final Duration DEADLINE = Duration.ofSeconds(20);
    private static final DateTimeFormatter LOCAL = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss");

    @Inject
    Database database;

    private final Schedules.Created created = new Schedules.Created();

    @AfterEach
    void endSchedules() {
        created.endAll();
    }

    /** A daily schedule on the push channel whose first occurrence is due in a second or two. */
    private Map<String, Object> dueNowOnPush() {
        String start = LOCAL.format(
                Instant.now().plusSeconds(2).truncatedTo(ChronoUnit.SECONDS).atOffset(ZoneOffset.UTC));
        Map<String, Object> body = schedule(start, "UTC", "FREQ=DAILY");
        body.put("channel", "push");
        return body;
    }

    /** 09:00 on a day beyond the hand-off window (its occurrences stay pending) that the calendar will not overtake. */
    private static String parkedStart() {
        return FutureDates.day() + "T09:00";
    }

    private long create(Map<String, Object> body) {
        return created.create(body);
    }

    @Test
    void aSentOccurrenceIsFollowedByTheNextOne() {
        Map<String, Object> body = dueNowOnPush();
        body.put("data", Map.of("plant", "fern"));
        String user = (String) body.get("user_id");
        long id = create(body);

        await().atMost(DEADLINE).untilAsserted(() -> assertThat(states(user, id))
                .containsEntry(1, "sent").containsEntry(2, "handed_off").containsEntry(3, "handed_off"));

        List<Map<String, Object>> occurrences = occurrences(user, id);
        long first = ((Number) occurrences.get(0).get("id")).longValue();
        List<Received> sends = notifier().receivedFor(user);
        assertThat(sends).singleElement().satisfies(send -> {
            assertThat(send.idempotencyKey()).isEqualTo("reminder:" + first + ":0");
            assertThat(send.body().getString("template")).isEqualTo("water_plants");
            assertThat(send.body().getJsonObject("data").getString("plant")).isEqualTo("fern");
        });
        assertThat(Instant.parse((String) occurrences.get(2).get("fire_at")))
                .isEqualTo(Instant.parse((String) occurrences.get(0).get("fire_at")).plus(Duration.ofDays(2)));
        Schedules.get(id).body("last_occurrence", org.hamcrest.Matchers.equalTo(3));
    }

    @Test
    void aCancelledOccurrenceIsFollowedByTheNextOne() {
        Map<String, Object> body = schedule(parkedStart(), "Europe/Berlin", "FREQ=DAILY");
        String user = (String) body.get("user_id");
        long id = create(body);
        long first = ((Number) occurrences(user, id).get(0).get("id")).longValue();

        api().delete("/v1/reminders/" + first).then().statusCode(200);

        assertThat(states(user, id)).containsExactly(Map.entry(1, "cancelled"), Map.entry(2, "pending"),
                Map.entry(3, "pending"));
    }

    @Test
    void theSweepTopsUpASchedulesWhoseFollowUpWasLost() {
        Map<String, Object> body = schedule(parkedStart(), "UTC", "FREQ=DAILY");
        String user = (String) body.get("user_id");
        long id = create(body);
        long first = ((Number) occurrences(user, id).get(0).get("id")).longValue();
        database.setState(first, "expired");

        long toppedUp = api().post("/v1/sweep").then().statusCode(200).extract().jsonPath()
                .getLong("schedules_topped_up");

        assertThat(toppedUp).isGreaterThanOrEqualTo(1);
        assertThat(states(user, id)).containsExactly(Map.entry(1, "expired"), Map.entry(2, "pending"),
                Map.entry(3, "pending"));
    }

    @Test
    void concurrentTopUpsCreateEachOccurrenceOnce() throws Exception {
        Map<String, Object> body = schedule(parkedStart(), "UTC", "FREQ=DAILY");
        String user = (String) body.get("user_id");
        long id = create(body);
        for (Map<String, Object> occurrence : occurrences(user, id)) {
            database.setState(((Number) occurrence.get("id")).longValue(), "sent");
        }

        CountDownLatch start = new CountDownLatch(1);
        List<CompletableFuture<Integer>> sweeps = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            sweeps.add(CompletableFuture.supplyAsync(() -> {
                try {
                    start.await(5, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return api().post("/v1/sweep").then().extract().statusCode();
            }));
        }
        start.countDown();
        for (CompletableFuture<Integer> sweep : sweeps) {
            assertThat(sweep.get(30, TimeUnit.SECONDS)).isEqualTo(200);
        }

        assertThat(states(user, id)).containsExactly(Map.entry(1, "sent"), Map.entry(2, "sent"),
                Map.entry(3, "pending"), Map.entry(4, "pending"));
        assertThat(database.count("select count(*) from reminders where schedule_id = $1", id)).isEqualTo(4);
    }
}
