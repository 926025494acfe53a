package dev.tickler.schedule;

import static dev.tickler.schedule.Schedules.occurrences;
import static dev.tickler.schedule.Schedules.post;
import static dev.tickler.schedule.Schedules.schedule;
import static dev.tickler.schedule.Schedules.states;
import static dev.tickler.testing.Api.api;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import jakarta.inject.Inject;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;

import dev.tickler.testing.Api;
import dev.tickler.testing.Database;
import dev.tickler.testing.MovableClock;

/**
 * catch_up for a start in the past and for a pause, on a clock set to 2026-12-01T12:00Z: a daily 09:00 UTC rule from
 * 2026-11-26 has missed six occurrences (26 November to 1 December).
 */
@QuarkusTest
class ScheduleCatchUpTest {

    /** Every five minutes of every day: 288 occurrences a day. */
    private static final String EVERY_FIVE_MINUTES = "FREQ=DAILY;BYHOUR=" + numbers(0, 23, 1) + ";BYMINUTE="
            + numbers(0, 55, 5);
    private static final String EVERY_MINUTE = "FREQ=DAILY;BYHOUR=" + numbers(0, 23, 1) + ";BYMINUTE="
            + numbers(0, 59, 1);

    @Inject
    MovableClock clock;

    @Inject
    Database database;

    private static String numbers(int from, int to, int step) {
        return java.util.stream.IntStream.iterate(from, n -> n <= to, n -> n + step).mapToObj(Integer::toString)
                .collect(java.util.stream.Collectors.joining(","));
    }

    private final Schedules.Created created = new Schedules.Created();

    @BeforeEach
    void fixedDate() {
        clock.setTo(ScheduleApiTest.NOW);
    }

    @AfterEach
    void endSchedulesAndResetClock() {
        created.endAll();
        clock.reset();
    }

    private Map<String, Object> missedSix(String catchUp) {
        Map<String, Object> body = schedule("2026-11-26T09:00", "UTC", "FREQ=DAILY");
        body.put("catch_up", catchUp);
        return body;
    }

    private long create(Map<String, Object> body) {
        return created.create(body);
    }

    @Test
    void allSendsEveryMissedOccurrenceLate() {
        Map<String, Object> body = missedSix("all");
        String user = (String) body.get("user_id");
        long id = create(body);

        Map<Integer, String> states = states(user, id);
        assertThat(states).hasSize(6).containsOnlyKeys(1, 2, 3, 4, 5, 6);
        assertThat(states.values()).containsOnly("handed_off");
        Schedules.get(id).body("skipped_count", equalTo(0)).body("last_occurrence", equalTo(6));
    }

    @Test
    void latestSendsTheMostRecentAndSkipsTheRest() {
        Map<String, Object> body = missedSix("latest");
        String user = (String) body.get("user_id");
        long id = create(body);

        Map<Integer, String> expected = new LinkedHashMap<>();
        for (int i = 1; i <= 5; i++) {
            expected.put(i, "skipped");
        }
        expected.put(6, "handed_off");
        expected.put(7, "handed_off");
        assertThat(states(user, id)).containsExactlyEntriesOf(expected);
        List<Map<String, Object>> occurrences = occurrences(user, id);
        assertThat(occurrences.get(5).get("fire_at")).isEqualTo("2026-12-01T09:00:00Z");
        assertThat(occurrences.get(6).get("fire_at")).isEqualTo("2026-12-02T09:00:00Z");
        long skipped = ((Number) occurrences.get(0).get("id")).longValue();
        assertThat(Api.events(skipped)).extracting(event -> event.get("type")).containsExactly("registered", "skipped");
        Schedules.get(id).body("skipped_count", equalTo(5));
    }

    @Test
    void noneSkipsEveryMissedOccurrence() {
        Map<String, Object> body = missedSix("none");
        String user = (String) body.get("user_id");
        long id = create(body);

        Map<Integer, String> states = states(user, id);
        assertThat(states).hasSize(8);
        assertThat(states.entrySet()).filteredOn(entry -> entry.getKey() <= 6).extracting(Map.Entry::getValue)
                .containsOnly("skipped");
        assertThat(states.get(7)).isEqualTo("handed_off");
        assertThat(states.get(8)).isEqualTo("handed_off");
        Schedules.get(id).body("skipped_count", equalTo(6));
    }

    @Test
    void onlyTheHundredMostRecentSkipsBecomeRemindersTheRestAreCounted() {
        Map<String, Object> body = schedule("2026-01-01T09:00", "UTC", "FREQ=DAILY");
        body.put("catch_up", "none");
        String user = (String) body.get("user_id");
        long id = create(body);

        // 1 January to 1 December 2026: 335 days missed
        Map<Integer, String> states = states(user, id);
        assertThat(states.keySet()).first().isEqualTo(236);
        assertThat(states.entrySet()).filteredOn(entry -> "skipped".equals(entry.getValue())).hasSize(100);
        assertThat(states.get(336)).isEqualTo("handed_off");
        assertThat(states.get(337)).isEqualTo("handed_off");
        Schedules.get(id).body("skipped_count", equalTo(335)).body("last_occurrence", equalTo(337));
    }

    @Test
    void startInThePastWithCountEndsTheScheduleAtOnce() {
        Map<String, Object> body = schedule("2026-11-26T09:00", "UTC", "FREQ=DAILY;COUNT=3");
        body.put("catch_up", "none");
        long id = create(body);

        Schedules.get(id).body("state", equalTo("ended")).body("skipped_count", equalTo(3));
    }

    @Test
    void resumeAppliesCatchUpToWhatWasMissedWhilePaused() {
        Map<String, Object> body = schedule("2026-12-02T09:00", "UTC", "FREQ=DAILY");
        String user = (String) body.get("user_id");
        long id = create(body);
        post(id, "pause").statusCode(200);

        clock.moveBy(Duration.ofDays(3));
        post(id, "resume").statusCode(200).body("skipped_count", equalTo(2));

        // 2 to 4 December passed while paused: 2 and 3 skipped, 4 sent late, 5 next
        assertThat(states(user, id)).containsExactly(Map.entry(1, "cancelled"), Map.entry(2, "cancelled"),
                Map.entry(3, "skipped"), Map.entry(4, "skipped"), Map.entry(5, "handed_off"),
                Map.entry(6, "handed_off"));
        List<Map<String, Object>> occurrences = occurrences(user, id);
        assertThat(occurrences.subList(2, 6)).extracting(item -> item.get("fire_at")).containsExactly(
                "2026-12-02T09:00:00Z", "2026-12-03T09:00:00Z", "2026-12-04T09:00:00Z", "2026-12-05T09:00:00Z");
        assertThat(Instant.parse((String) occurrences.get(5).get("fire_at"))).isAfter(clock.instant());
    }
    @Test
    void creationWithMoreThanTwentyThousandMissedOccurrencesIsRefusedNamingStart() {
        // every five minutes for the 80 days before 1 December: 23,040 missed
        Map<String, Object> body = schedule("2026-09-12T12:00", "UTC", EVERY_FIVE_MINUTES);
        Schedules.create(body).statusCode(400).body("errors[0].field", equalTo("start"));
        // every minute since 1970: 29.7 million, refused after looking at 20,001 of them
        Schedules.create(schedule("1970-01-01T00:00", "UTC", EVERY_MINUTE)).statusCode(400)
                .body("errors[0].field", equalTo("start"));
        assertThat(database.count("SELECT count(*) FROM schedules WHERE user_id = $1", body.get("user_id"))).isZero();
    }

    @Test
    void aCatchUpOfManyPassesRecordsOnlyTheHundredMostRecentSkips() {
        Map<String, Object> body = schedule("2026-12-01T12:05", "UTC", EVERY_FIVE_MINUTES);
        long id = create(body);
        post(id, "pause").statusCode(200);

        // 100 days paused: 28,800 occurrences missed, more than one pass of 20,000 examines
        clock.moveBy(Duration.ofDays(100));
        long skipped = post(id, "resume").statusCode(200).extract().jsonPath().getLong("skipped_count");

        assertThat(skipped).isGreaterThan(20_000);
        assertThat(database.count("SELECT count(*) FROM reminders WHERE schedule_id = $1 AND state = 'skipped'", id))
                .isEqualTo(100);
        // the latest missed one is sent late, the hundred before it are the recorded skips
        assertThat(database.count("SELECT max(occurrence) FILTER (WHERE state = 'skipped') + 1"
                + " - min(occurrence) FILTER (WHERE state = 'skipped') FROM reminders WHERE schedule_id = $1", id))
                .isEqualTo(100);
    }

    @Test
    void aScheduleThatMissedTooManyToExpandIsNotPreviewedUntilResumed() {
        long id = create(schedule("2026-12-01T12:05", "UTC", EVERY_FIVE_MINUTES));
        post(id, "pause").statusCode(200);
        clock.moveBy(Duration.ofDays(100));

        api().queryParam("count", 3).get("/v1/schedules/" + id + "/preview").then().statusCode(409)
                .body("type", org.hamcrest.Matchers.equalTo("urn:tickler:problem:schedule-behind"))
                .body("detail", org.hamcrest.Matchers.containsString("resume it"));

        post(id, "resume").statusCode(200);
        assertThat(Schedules.preview(id, 3).getList("items")).hasSize(3);
    }
}
