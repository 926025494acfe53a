package dev.tickler.delivery;

import static dev.tickler.testing.Api.api;
import static dev.tickler.testing.Api.createdId;
import static dev.tickler.testing.Api.reminderAt;
import static dev.tickler.testing.NotifierResource.notifier;
import static dev.tickler.testing.Push.message;
import static dev.tickler.testing.Push.push;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import jakarta.inject.Inject;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;

import dev.tickler.testing.Api;
import dev.tickler.testing.Database;
import dev.tickler.testing.Metrics;
import dev.tickler.testing.MovableClock;
import dev.tickler.testing.NotifierStandIn.Reply;

/**
 * Lateness by design is not dispatch lag (docs/operating.md, "Metrics"): a reminder deferred by quiet hours, one
 * registered already past its fire_at and a retry count their lag from when they were due to go, in the overview, the
 * console (which reads the overview) and the dispatch-lag timer alike, so one old reminder cannot move a p95.
 */
@QuarkusTest
class LateByDesignTest {

    private static final Duration DEADLINE = Duration.ofSeconds(20);
    private static final DateTimeFormatter CLOCK = DateTimeFormatter.ofPattern("HH:mm").withZone(ZoneOffset.UTC);
    private static final Pattern LAG_BUCKET = Pattern.compile("(?m)^tickler_dispatch_lag_seconds_bucket"
            + "\\{(?=[^}]*tenant=\"default\")[^}]*le=\"([^\"]+)\"[^}]*\\} (\\S+)$");
    /** A lag of seconds at most: the machine's own pace, never the hours a reminder was late by design. */
    private static final double SECONDS = 10.0;

    @Inject
    MovableClock clock;

    @Inject
    Database database;

    @AfterEach
    void backToNow() {
        clock.reset();
    }

    @Test
    void aDeferredAndALateRegisteredReminderKeepTheOverviewsLagAndTheTimerToSeconds() {
        // an hour of the application's clock that no other test sends in, so the overview holds only these two sends
        clock.setTo(Instant.now().plus(Duration.ofDays(365L * 600)).truncatedTo(ChronoUnit.HOURS).plusSeconds(300));
        TreeMap<Double, Double> before = lagBuckets();

        String quietUser = Api.newUser();
        Instant now = clock.instant();
        api().body(Map.of("tz", "UTC", "policy", "defer", "windows", List.of(Map.of(
                        "start", CLOCK.format(now.minus(Duration.ofHours(1))),
                        "end", CLOCK.format(now.plus(Duration.ofHours(2)))))))
                .put("/v1/users/" + quietUser + "/quiet-hours").then().statusCode(200);
        Map<String, Object> deferredBody = reminderAt(now);
        deferredBody.put("user_id", quietUser);
        long deferred = createdId(deferredBody);
        Instant windowEnds = now.plus(Duration.ofHours(2)).truncatedTo(ChronoUnit.MINUTES);
        clock.moveBy(Duration.between(clock.instant(), windowEnds).plusSeconds(1));
        sendNow(deferred);

        long registeredLate = createdId(reminderAt(clock.instant().minus(Duration.ofHours(20))));
        sendNow(registeredLate);

        JsonPath overview = api().get("/v1/admin/overview").then().statusCode(200).extract().jsonPath();
        assertThat(overview.getLong("dispatch_lag_ms.p95")).isLessThan((long) (SECONDS * 1000));
        assertThat(overview.getLong("dispatch_lag_ms.p99")).isLessThan((long) (SECONDS * 1000));
        // lateness stays what it is, fire_at to sent: the late registration is in the bucket beyond five minutes
        assertThat(overview.getList("lateness.count", Integer.class)).last().isEqualTo(2);

        TreeMap<Double, Double> after = lagBuckets();
        assertThat(count(after) - count(before)).isEqualTo(2);
        assertThat(countUpTo(after, SECONDS) - countUpTo(before, SECONDS)).isEqualTo(2);
    }

    @Test
    void aRetryInMemoryIsDueAtItsRetryNotAtTheFirstAttempt() {
        Map<String, Object> body = reminderAt(Instant.now());
        String user = (String) body.get("user_id");
        notifier().script(user, Reply.status(503));
        long id = createdId(body);

        sendNow(id);

        assertThat(notifier().receivedFor(user)).hasSize(2);
        Instant firstAttempt = notifier().receivedFor(user).get(0).at();
        Instant dueAt = Instant.parse(database.text("SELECT to_char(deferred_until AT TIME ZONE 'UTC',"
                + " 'YYYY-MM-DD\"T\"HH24:MI:SS.US\"Z\"') FROM reminders WHERE id = $1", id));
        Instant sentAt = Instant.parse(Api.get(id).extract().jsonPath().getString("sent_at"));
        assertThat(dueAt).isAfter(firstAttempt).isBeforeOrEqualTo(sentAt);
    }

    private static void sendNow(long id) {
        push(message(id, 0)).statusCode(200).body("result", equalTo("claimed"));
        await().atMost(DEADLINE).untilAsserted(() -> Api.get(id).statusCode(200).body("state", equalTo("sent")));
    }

    /** The dispatch-lag timer's cumulative buckets of the default tenant, by upper bound in seconds. */
    private static TreeMap<Double, Double> lagBuckets() {
        TreeMap<Double, Double> buckets = new TreeMap<>();
        Matcher bucket = LAG_BUCKET.matcher(Metrics.page());
        while (bucket.find()) {
            buckets.put(bucket.group(1).equals("+Inf") ? Double.POSITIVE_INFINITY : Double.parseDouble(bucket.group(1)),
                    Double.parseDouble(bucket.group(2)));
        }
        return buckets;
    }

    private static double count(TreeMap<Double, Double> buckets) {
        return buckets.getOrDefault(Double.POSITIVE_INFINITY, 0.0);
    }

    /** Samples of at most about {@code bound} seconds: the bucket with the largest bound not above it. */
    private static double countUpTo(TreeMap<Double, Double> buckets, double bound) {
        Map.Entry<Double, Double> within = buckets.floorEntry(bound);
        return within == null ? 0 : within.getValue();
    }
}
