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
import dev.tickler.testing.MovableClock;

/**
 * catch_up for a start in the past and for a pause, on a clock set to 2026-12-01T12:00Z: a daily 09:00 UTC rule from
 * 2026-11-26 has missed six occurrences (26 November to 1 December).
 */
@QuarkusTest
class ScheduleCatchUpTest {

    @Inject
    MovableClock clock;

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
}
