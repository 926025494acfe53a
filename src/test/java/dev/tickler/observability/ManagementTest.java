package dev.tickler.observability;

import static dev.tickler.testing.Api.createdId;
import static dev.tickler.testing.Api.pushReminderAt;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;

import java.time.Duration;
import java.time.Instant;
import java.util.logging.Level;
import java.util.logging.LogRecord;

import org.junit.jupiter.api.Test;

import jakarta.inject.Inject;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.specification.RequestSpecification;

import dev.tickler.testing.Api;
import dev.tickler.testing.CapturedLogs;
import dev.tickler.testing.Database;
import dev.tickler.testing.InfraiEmulatorResource;
import dev.tickler.testing.Metrics;
import dev.tickler.testing.Push;

/**
 * Health and metrics on the management interface (docs/contract.md#observability), away from the public port, under the
 * names the README lists.
 */
@QuarkusTest
class ManagementTest {

    @Inject
    ReminderGauges gauges;

    @Inject
    Database database;

    @Test
    void readinessChecksPostgres() {
        management().get("/q/health/ready").then()
                .statusCode(200)
                .body("status", equalTo("UP"))
                .body("checks.name", hasItem("Reactive PostgreSQL connections health check"));
        management().get("/q/health/live").then().statusCode(200);
    }

    @Test
    void managementEndpointsAreNotOnThePublicPort() {
        given().get("/q/health/ready").then().statusCode(404);
        given().get("/q/metrics").then().statusCode(404);
    }

    @Test
    void openApiDescribesTheRegistrationApiButNotThePushPath() {
        String document = management().get("/q/openapi").then().statusCode(200).extract().asString();
        assertThat(document).contains("/v1/reminders").contains("/v1/sweep").doesNotContain("/q/{token}/reminders");
    }

    @Test
    void refreshingTheGaugesAgainWarnsOfNothing() {
        try (CapturedLogs logs = CapturedLogs.start()) {
            gauges.refresh().await().atMost(Duration.ofSeconds(10));
            gauges.refresh().await().atMost(Duration.ofSeconds(10));

            assertThat(logs.records()).filteredOn(record -> record.getLevel().intValue() >= Level.WARNING.intValue())
                    .extracting(LogRecord::getMessage).isEmpty();
        }
    }

    @Test
    void everyDocumentedMetricIsExported() {
        long sent = createdId(pushReminderAt(Instant.now()));
        // overdue for an hour: a registration past its fire_at is due from its registration, so it is written here
        database.insertReminder(Api.newUser(), "pending", Instant.now().minus(Duration.ofHours(1)), "");
        await().atMost(Duration.ofSeconds(15)).untilAsserted(() -> Api.get(sent).body("state", equalTo("sent")));
        // the refresh its schedule runs every tickler.metrics.refresh, run here until a run of the schedule that
        // started before the send no longer overwrites it
        await().atMost(Duration.ofSeconds(15)).untilAsserted(() -> {
            gauges.refresh().await().atMost(Duration.ofSeconds(10));
            assertThat(Metrics.value("tickler_reminders{state=\"sent\"}")).isGreaterThanOrEqualTo(1);
            assertThat(Metrics.value("tickler_reminders_oldest_overdue_seconds")).isGreaterThanOrEqualTo(3000);
        });

        String page = Metrics.page();
        // the SQL client's per-connection meters are left out (SqlClientMeters); the pool's own are exported
        assertThat(page).doesNotContain("postgresql_queue_size").contains("sql_pool_queue_size");
        assertThat(page).contains(
                "tickler_dispatch_lag_seconds_bucket",
                "tickler_dispatch_lag_seconds_count",
                "tickler_reminders{state=\"pending\"}",
                "tickler_reminders{state=\"handed_off\"}",
                "tickler_reminders{state=\"delivering\"}",
                "tickler_reminders{state=\"sent\"}",
                "tickler_reminders{state=\"failed\"}",
                "tickler_reminders{state=\"cancelled\"}",
                "tickler_reminders{state=\"expired\"}",
                "tickler_reminders_oldest_overdue_seconds",
                "tickler_notify_responses_total{class=\"2xx\"}",
                "tickler_notify_rate_limited_total",
                "tickler_notify_concurrency_limit",
                "tickler_notify_in_flight",
                "tickler_notify_pace",
                "tickler_notify_local_delay_seconds",
                "tickler_handoff_published_total",
                "tickler_handoff_publish_failures_total",
                "tickler_queue_delayed{queue=\"" + InfraiEmulatorResource.PUSHED_QUEUE + "\"}",
                "tickler_queue_handed_off_ahead",
                "tickler_queue_delayed_gap",
                "tickler_poll_ack_not_in_flight_total",
                "tickler_delivery_held");
    }

    @Test
    void sweepAndPushCountersAppearOnceUsed() {
        Api.api().post("/v1/sweep").then().statusCode(200);
        Push.push(Push.message(999_999_999L, 0)).statusCode(200);

        assertThat(Metrics.page()).contains(
                "tickler_sweep_handed_off_total",
                "tickler_sweep_failed_publish_total",
                "tickler_sweep_reconciled_total",
                "tickler_sweep_expired_total",
                "tickler_sweep_duration_seconds_count",
                "tickler_push_ignored_total{reason=\"unknown\"}");
    }

    private static RequestSpecification management() {
        return given().port(InfraiEmulatorResource.managementPort());
    }
}
