package dev.tickler.schedule;

import static dev.tickler.schedule.Schedules.occurrences;
import static dev.tickler.schedule.Schedules.post;
import static dev.tickler.schedule.Schedules.preview;
import static dev.tickler.schedule.Schedules.schedule;
import static dev.tickler.schedule.Schedules.states;
import static dev.tickler.testing.Api.api;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.endsWith;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import jakarta.inject.Inject;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;

import dev.tickler.testing.Api;
import dev.tickler.testing.MovableClock;

/** The schedules API over HTTP, on a clock set to a fixed date, with DST seen through the preview. */
@QuarkusTest
class ScheduleApiTest {

    static final Instant NOW = Instant.parse("2026-12-01T12:00:00Z");

    @Inject
    MovableClock clock;

    private final Schedules.Created created = new Schedules.Created();

    @BeforeEach
    void fixedDate() {
        clock.setTo(NOW);
    }

    @AfterEach
    void endSchedulesAndResetClock() {
        created.endAll();
        clock.reset();
    }

    private long create(Map<String, Object> body) {
        return created.create(body);
    }

    @Test
    void createdScheduleAnswers201WithLocationAndKeepsTwoOccurrencesAsReminders() {
        Map<String, Object> body = schedule("2026-12-05T09:00", "Europe/Berlin", "FREQ=WEEKLY;BYDAY=SA,MO");
        body.put("data", Map.of("plant", "fern"));
        body.put("expires_after", "PT2H");
        String user = (String) body.get("user_id");

        var response = api().body(body).post("/v1/schedules").then().statusCode(201);
        JsonPath schedule = response.extract().jsonPath();
        long id = schedule.getLong("id");
        created.add(id);
        response.header("Location", endsWith("/v1/schedules/" + id));

        assertThat(schedule.getString("user_id")).isEqualTo(user);
        assertThat(schedule.getString("channel")).isEqualTo("email");
        assertThat(schedule.getString("template")).isEqualTo("water_plants");
        assertThat(schedule.getString("tz")).isEqualTo("Europe/Berlin");
        assertThat(schedule.getString("start")).isEqualTo("2026-12-05T09:00:00");
        assertThat(schedule.getString("rrule")).isEqualTo("FREQ=WEEKLY;BYDAY=MO,SA");
        assertThat(schedule.getString("dst.gap")).isEqualTo("shift");
        assertThat(schedule.getString("dst.overlap")).isEqualTo("first");
        assertThat(schedule.getString("catch_up")).isEqualTo("latest");
        assertThat(schedule.getString("state")).isEqualTo("active");
        assertThat(schedule.getString("expires_after")).isEqualTo("PT2H");
        assertThat(schedule.getLong("skipped_count")).isZero();
        assertThat(schedule.getInt("last_occurrence")).isEqualTo(2);

        List<Map<String, Object>> occurrences = occurrences(user, id);
        assertThat(occurrences).extracting(item -> item.get("occurrence")).containsExactly(1, 2);
        assertThat(occurrences).extracting(item -> item.get("fire_at"))
                .containsExactly("2026-12-05T08:00:00Z", "2026-12-07T08:00:00Z");
        assertThat(occurrences).extracting(item -> item.get("state")).containsOnly("handed_off");
        assertThat(occurrences).extracting(item -> item.get("expires_at"))
                .containsExactly("2026-12-05T10:00:00Z", "2026-12-07T10:00:00Z");
        assertThat(occurrences.get(0).get("data")).isEqualTo(Map.of("plant", "fern"));
        long first = ((Number) occurrences.get(0).get("id")).longValue();
        assertThat(Api.events(first)).first().satisfies(event -> {
            assertThat(event.get("type")).isEqualTo("registered");
            assertThat(event.get("by")).isEqualTo("key-1");
        });
        Api.get(first).body("schedule_id", equalTo((int) id)).body("occurrence", equalTo(1));

        Schedules.get(id).statusCode(200).body("id", equalTo((int) id));
        api().get("/v1/schedules/999999999").then().statusCode(404)
                .body("type", equalTo("urn:tickler:problem:not-found"));
    }

    @Test
    void listIsKeysetPaginatedByUser() {
        Map<String, Object> body = schedule("2026-12-05T09:00", "UTC", "FREQ=DAILY");
        String user = (String) body.get("user_id");
        List<Long> ids = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            body.put("start", "2026-12-0" + (5 + i) + "T09:00");
            ids.add(create(body));
        }

        JsonPath first = api().queryParam("user_id", user).queryParam("limit", 2).get("/v1/schedules").then()
                .statusCode(200).extract().jsonPath();
        assertThat(first.getList("items.id", Long.class)).containsExactly(ids.get(0), ids.get(1));
        JsonPath second = api().queryParam("user_id", user).queryParam("limit", 2)
                .queryParam("after", first.getString("next")).get("/v1/schedules").then().statusCode(200)
                .extract().jsonPath();
        assertThat(second.getList("items.id", Long.class)).containsExactly(ids.get(2));
        assertThat(second.getString("next")).isNull();
    }

    @Test
    void berlinSpringGapShiftsOrSkipsTheDay() {
        Map<String, Object> shift = schedule("2027-03-26T02:30", "Europe/Berlin", "FREQ=DAILY");
        JsonPath shifted = preview(create(shift), 4);
        assertThat(shifted.getList("items.occurrence", Integer.class)).containsExactly(1, 2, 3, 4);
        assertThat(shifted.getList("items.fire_at", String.class)).containsExactly("2027-03-26T01:30:00Z",
                "2027-03-27T01:30:00Z", "2027-03-28T01:30:00Z", "2027-03-29T00:30:00Z");
        assertThat(shifted.getList("items.fire_at_local", String.class)).containsExactly("2027-03-26T02:30:00+01:00",
                "2027-03-27T02:30:00+01:00", "2027-03-28T03:30:00+02:00", "2027-03-29T02:30:00+02:00");
        assertThat(shifted.getList("items.dst", String.class)).containsExactly(null, null, "gap_shifted", null);

        Map<String, Object> skip = schedule("2027-03-26T02:30", "Europe/Berlin", "FREQ=DAILY");
        skip.put("dst", Map.of("gap", "skip"));
        JsonPath skipped = preview(create(skip), 3);
        assertThat(skipped.getList("items.occurrence", Integer.class)).containsExactly(1, 2, 3);
        assertThat(skipped.getList("items.fire_at_local", String.class)).containsExactly("2027-03-26T02:30:00+01:00",
                "2027-03-27T02:30:00+01:00", "2027-03-29T02:30:00+02:00");
    }

    @Test
    void berlinAutumnOverlapTakesTheFirstOrTheLastOffset() {
        JsonPath first = preview(create(schedule("2027-10-30T02:30", "Europe/Berlin", "FREQ=DAILY")), 3);
        assertThat(first.getString("items[1].fire_at_local")).isEqualTo("2027-10-31T02:30:00+02:00");
        assertThat(first.getString("items[1].fire_at")).isEqualTo("2027-10-31T00:30:00Z");
        assertThat(first.getString("items[1].dst")).isEqualTo("overlap_earlier");

        Map<String, Object> last = schedule("2027-10-30T02:30", "Europe/Berlin", "FREQ=DAILY");
        last.put("dst", Map.of("overlap", "last"));
        JsonPath later = preview(create(last), 3);
        assertThat(later.getString("items[1].fire_at_local")).isEqualTo("2027-10-31T02:30:00+01:00");
        assertThat(later.getString("items[1].fire_at")).isEqualTo("2027-10-31T01:30:00Z");
        assertThat(later.getString("items[1].dst")).isEqualTo("overlap_later");
        assertThat(later.getString("items[2].dst")).isNull();
    }

    @Test
    void newYorkGapAndOverlapThroughThePreview() {
        JsonPath spring = preview(create(schedule("2027-03-13T02:30", "America/New_York", "FREQ=DAILY")), 2);
        assertThat(spring.getString("items[1].fire_at_local")).isEqualTo("2027-03-14T03:30:00-04:00");
        assertThat(spring.getString("items[1].fire_at")).isEqualTo("2027-03-14T07:30:00Z");
        assertThat(spring.getString("items[1].dst")).isEqualTo("gap_shifted");

        Map<String, Object> autumn = schedule("2027-11-06T01:30", "America/New_York", "FREQ=DAILY");
        autumn.put("dst", Map.of("gap", "skip", "overlap", "last"));
        JsonPath fall = preview(create(autumn), 2);
        assertThat(fall.getString("items[1].fire_at_local")).isEqualTo("2027-11-07T01:30:00-05:00");
        assertThat(fall.getString("items[1].fire_at")).isEqualTo("2027-11-07T06:30:00Z");
        assertThat(fall.getString("items[1].dst")).isEqualTo("overlap_later");
    }

    @Test
    void previewEndsWithTheRule() {
        long id = create(schedule("2026-12-05T09:00", "UTC", "FREQ=DAILY;COUNT=3"));
        assertThat(preview(id, 100).getList("items.fire_at", String.class)).containsExactly(
                "2026-12-05T09:00:00Z", "2026-12-06T09:00:00Z", "2026-12-07T09:00:00Z");
    }

    @Test
    void pauseCancelsWaitingOccurrencesAndResumeCreatesThemAgainUnderNewNumbers() {
        Map<String, Object> body = schedule("2026-12-05T09:00", "UTC", "FREQ=DAILY");
        String user = (String) body.get("user_id");
        long id = create(body);

        post(id, "pause").statusCode(200).body("state", equalTo("paused")).body("version", equalTo(1));
        post(id, "pause").statusCode(200).body("state", equalTo("paused")).body("version", equalTo(1));
        assertThat(states(user, id)).containsExactly(Map.entry(1, "cancelled"), Map.entry(2, "cancelled"));
        long cancelled = ((Number) occurrences(user, id).get(0).get("id")).longValue();
        assertThat(Api.events(cancelled)).last().satisfies(event -> {
            assertThat(event.get("type")).isEqualTo("cancelled");
            assertThat(event.get("by")).isEqualTo("key-1");
        });

        post(id, "resume").statusCode(200).body("state", equalTo("active")).body("last_occurrence", equalTo(4));
        post(id, "resume").statusCode(200).body("version", equalTo(2));
        List<Map<String, Object>> occurrences = occurrences(user, id);
        assertThat(occurrences).extracting(item -> item.get("occurrence")).containsExactly(1, 2, 3, 4);
        assertThat(occurrences.subList(2, 4)).extracting(item -> item.get("fire_at"))
                .containsExactly("2026-12-05T09:00:00Z", "2026-12-06T09:00:00Z");
        assertThat(occurrences.subList(2, 4)).extracting(item -> item.get("state")).containsOnly("handed_off");
    }

    @Test
    void patchReplacesWaitingOccurrences() {
        Map<String, Object> body = schedule("2026-12-05T09:00", "UTC", "FREQ=DAILY");
        String user = (String) body.get("user_id");
        long id = create(body);

        api().body(Map.of("rrule", "FREQ=DAILY;BYHOUR=10", "start", "2026-12-05T10:00", "data", Map.of("v", 2)))
                .patch("/v1/schedules/" + id).then().statusCode(200)
                .body("rrule", equalTo("FREQ=DAILY;BYHOUR=10")).body("version", equalTo(1));

        assertThat(states(user, id)).containsExactly(Map.entry(1, "cancelled"), Map.entry(2, "cancelled"),
                Map.entry(3, "handed_off"), Map.entry(4, "handed_off"));
        List<Map<String, Object>> occurrences = occurrences(user, id);
        assertThat(occurrences.subList(2, 4)).extracting(item -> item.get("fire_at"))
                .containsExactly("2026-12-05T10:00:00Z", "2026-12-06T10:00:00Z");
        assertThat(occurrences.get(2).get("data")).isEqualTo(Map.of("v", 2));
        assertThat(preview(id, 1).getInt("items[0].occurrence")).isEqualTo(3);
    }

    @Test
    void deleteEndsTheScheduleAndCancelsUnsentOccurrencesOnce() {
        Map<String, Object> body = schedule("2026-12-05T09:00", "UTC", "FREQ=DAILY");
        String user = (String) body.get("user_id");
        long id = create(body);

        api().delete("/v1/schedules/" + id).then().statusCode(200).body("state", equalTo("ended"))
                .body("version", equalTo(1));
        api().delete("/v1/schedules/" + id).then().statusCode(200).body("version", equalTo(1));

        assertThat(states(user, id)).containsExactly(Map.entry(1, "cancelled"), Map.entry(2, "cancelled"));
        assertThat(preview(id, 5).getList("items")).isEmpty();
        post(id, "resume").statusCode(409).body("type", equalTo("urn:tickler:problem:schedule-ended"))
                .body("title", equalTo("The schedule has ended"));
        post(id, "pause").statusCode(409).body("type", equalTo("urn:tickler:problem:schedule-ended"));
        api().body(Map.of("data", Map.of())).patch("/v1/schedules/" + id).then().statusCode(409)
                .body("type", equalTo("urn:tickler:problem:schedule-ended"));
        Schedules.get(id).body("state", equalTo("ended")).body("expires_after", nullValue());
    }
}
