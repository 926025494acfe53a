package dev.tickler.operator;

import static dev.tickler.testing.Api.api;
import static dev.tickler.testing.Api.newUser;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;

import jakarta.inject.Inject;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;

import dev.tickler.testing.Database;
import dev.tickler.testing.FutureDates;
import dev.tickler.testing.MovableClock;

/**
 * GET /v1/admin/overview (docs/contract.md#operator-api). The time-bound figures are checked with the application's
 * clock moved to a moment no other test writes near, so that only the reminders seeded here fall in their windows.
 */
@QuarkusTest
class OverviewTest {

    private static final List<String> STATES =
            List.of("pending", "handed_off", "delivering", "sent", "failed", "cancelled", "expired", "skipped");

    @Inject
    MovableClock clock;

    @Inject
    SeededReminders seeded;

    @Inject
    Database database;

    private final List<String> users = new ArrayList<>();
    private int templates;

    @AfterEach
    void backToNow() {
        clock.reset();
        seeded.deleteAllOf(users);
        users.clear();
    }

    @Test
    void countsCoverEveryStateAndAgreeWithTheTable() {
        for (int i = 0; i < STATES.size(); i++) {
            seeded.many(user(), "email", STATES.get(i), i + 1, FutureDates.at(FutureDates.day(), 0));
        }

        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
            Map<String, Object> counts = overview().getMap("counts");
            assertThat(counts).containsOnlyKeys(STATES.toArray(String[]::new));
            for (String state : STATES) {
                assertThat(((Number) counts.get(state)).longValue()).as(state)
                        .isEqualTo(database.count("SELECT count(*) FROM reminders WHERE state = $1", state));
            }
        });
    }

    @Test
    void oldestOverdueIsTheOldestReminderOnItsWayNotADeadLetter() {
        String user = user();
        Instant oldestOnItsWay = Instant.parse("1969-06-01T00:00:00Z");
        seeded.of(user).template("dead").state("failed").fireAt(Instant.parse("1969-01-01T00:00:00Z")).insert();
        seeded.of(user).template("gone").state("cancelled").fireAt(Instant.parse("1969-02-01T00:00:00Z")).insert();
        seeded.of(user).template("stuck").state("delivering").fireAt(oldestOnItsWay).insert();
        seeded.of(user).template("parked").fireAt(Instant.parse("1969-07-01T00:00:00Z")).insert();

        long atLeast = Duration.between(oldestOnItsWay, Instant.now()).toSeconds();
        long seconds = overview().getLong("oldest_overdue_seconds");
        long atMost = Duration.between(oldestOnItsWay, Instant.now()).toSeconds();

        assertThat(seconds).isBetween(atLeast, atMost);
    }

    @Test
    void nothingInAWindowAnswersZerosWithEveryBucketAndHour() {
        Instant now = moveClockTo("1966-06-01T10:30:00Z");

        JsonPath overview = overview();

        assertThat(overview.getLong("oldest_overdue_seconds")).isZero();
        assertThat(overview.getMap("dispatch_lag_ms")).isEqualTo(Map.of("p50", 0, "p95", 0, "p99", 0));
        assertThat(overview.getList("lateness.le")).isEqualTo(Arrays.asList("PT1S", "PT5S", "PT30S", "PT5M", null));
        assertThat(overview.getList("lateness.count", Integer.class)).containsExactly(0, 0, 0, 0, 0);
        assertThat(overview.getList("forecast.hour", String.class)).isEqualTo(hoursFrom(now));
        assertThat(overview.getList("forecast.due", Integer.class)).isEqualTo(Collections.nCopies(48, 0));
    }

    @Test
    void dispatchLagIsOfTheLastHoursSendsAndLatenessOfTheLastDays() {
        Instant now = moveClockTo("2301-03-01T10:30:00Z");
        String user = user();
        // the last hour: these make the percentiles (p50 is the third of five, p95 and p99 the fifth)
        sent(user, now.minus(Duration.ofMinutes(50)), Duration.ofSeconds(1));
        sent(user, now.minus(Duration.ofMinutes(40)), Duration.ofSeconds(2));
        sent(user, now.minus(Duration.ofMinutes(30)), Duration.ofSeconds(10));
        sent(user, now.minus(Duration.ofMinutes(20)), Duration.ofSeconds(60));
        sent(user, now.minus(Duration.ofMinutes(10)), Duration.ofSeconds(400));
        // earlier in the day: lateness only
        sent(user, now.minus(Duration.ofHours(2)), Duration.ofSeconds(5));
        sent(user, now.minus(Duration.ofHours(23)), Duration.ofMinutes(20));
        // more than a day ago, or not a send: neither
        sent(user, now.minus(Duration.ofHours(25)), Duration.ofSeconds(1));
        seeded.of(user).template("failed").state("failed").fireAt(now.minus(Duration.ofMinutes(5)))
                .set("updated_at", now.minus(Duration.ofMinutes(1))).insert();

        JsonPath overview = overview();

        assertThat(overview.getMap("dispatch_lag_ms")).isEqualTo(Map.of("p50", 10_000, "p95", 400_000, "p99", 400_000));
        assertThat(overview.getList("lateness.le")).isEqualTo(Arrays.asList("PT1S", "PT5S", "PT30S", "PT5M", null));
        // bounds are inclusive: exactly 1 s is in PT1S, exactly 5 s in PT5S
        assertThat(overview.getList("lateness.count", Integer.class)).containsExactly(1, 2, 1, 1, 2);
    }

    @Test
    void forecastCountsRemindersOnTheirWayByUtcHourFromTheCurrentOne() {
        Instant now = moveClockTo("2302-07-01T10:30:00Z");
        Instant hour = Instant.parse("2302-07-01T10:00:00Z");
        String user = user();
        waiting(user, "pending", hour.plus(Duration.ofMinutes(5)));
        waiting(user, "pending", hour.plus(Duration.ofHours(1)).minusNanos(1_000));
        waiting(user, "handed_off", hour.plus(Duration.ofHours(1)));
        waiting(user, "handed_off", hour.plus(Duration.ofMinutes(90)));
        waiting(user, "delivering", hour.plus(Duration.ofHours(48)).minusSeconds(1));
        for (String finishedOrDead : List.of("failed", "cancelled", "sent", "expired", "skipped")) {
            waiting(user, finishedOrDead, hour.plus(Duration.ofHours(2)));
        }
        waiting(user, "pending", hour.minusSeconds(1));
        waiting(user, "pending", hour.plus(Duration.ofHours(48)));

        JsonPath overview = overview();

        List<Integer> expected = new ArrayList<>(Collections.nCopies(48, 0));
        expected.set(0, 2);
        expected.set(1, 2);
        expected.set(47, 1);
        assertThat(overview.getList("forecast.hour", String.class)).isEqualTo(hoursFrom(now));
        assertThat(overview.getList("forecast.due", Integer.class)).isEqualTo(expected);
    }

    private void sent(String user, Instant sentAt, Duration lateness) {
        seeded.of(user).template("sent" + templates++).state("sent").fireAt(sentAt.minus(lateness))
                .set("sent_at", sentAt).set("updated_at", sentAt).insert();
    }

    private void waiting(String user, String state, Instant fireAt) {
        seeded.of(user).template(state + templates++).state(state).fireAt(fireAt).insert();
    }

    /** The 48 UTC hours of a forecast made at {@code now}, as the API writes them. */
    private static List<String> hoursFrom(Instant now) {
        Instant first = now.truncatedTo(ChronoUnit.HOURS);
        List<String> hours = new ArrayList<>();
        for (int i = 0; i < 48; i++) {
            hours.add(first.plus(Duration.ofHours(i)).toString());
        }
        return hours;
    }

    /** The application's clock set to that moment (it keeps running from there). */
    private Instant moveClockTo(String moment) {
        Instant target = Instant.parse(moment);
        clock.reset();
        clock.moveBy(Duration.between(Instant.now(), target));
        return target;
    }

    private String user() {
        String user = newUser();
        users.add(user);
        return user;
    }

    private static JsonPath overview() {
        return api().get("/v1/admin/overview").then().statusCode(200).extract().jsonPath();
    }
}
