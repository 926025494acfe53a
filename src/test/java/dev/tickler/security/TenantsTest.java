package dev.tickler.security;

import static dev.tickler.testing.NotifierResource.notifier;
import static dev.tickler.testing.OperatorKeysProfile.BARE_PRODUCT;
import static dev.tickler.testing.OperatorKeysProfile.BILLING;
import static dev.tickler.testing.OperatorKeysProfile.CHECKOUT;
import static dev.tickler.testing.OperatorKeysProfile.CHECKOUT_NEXT;
import static dev.tickler.testing.OperatorKeysProfile.OPS;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.response.ValidatableResponse;
import io.restassured.specification.RequestSpecification;

import dev.tickler.testing.Api;
import dev.tickler.testing.Database;
import dev.tickler.testing.Metrics;
import dev.tickler.testing.OperatorKeysProfile;

/**
 * Tenants (docs/api.md, "Tenants"): what a product key of one tenant can do to another's reminders, schedules and
 * quiet hours (nothing: another tenant's id is a 404 like a missing one), the natural key per tenant, a key rotated
 * within its tenant, and what an operator key sees. Every call goes over HTTP with the profile's keys.
 */
@QuarkusTest
@TestProfile(OperatorKeysProfile.class)
class TenantsTest {

    @Inject
    Database database;

    @Test
    void anotherTenantsReminderIsNotFoundLikeOneThatDoesNotExist() {
        long id = createdId(CHECKOUT, Api.reminderAt(inAnHour()));
        JsonPath missing = as(BILLING).get("/v1/reminders/" + Long.MAX_VALUE).then().statusCode(404)
                .contentType("application/problem+json").extract().jsonPath();

        JsonPath other = as(BILLING).get("/v1/reminders/" + id).then().statusCode(404)
                .contentType("application/problem+json").extract().jsonPath();

        assertThat(other.getString("type")).isEqualTo(missing.getString("type"));
        assertThat(other.getString("title")).isEqualTo(missing.getString("title"));
        assertThat(other.getString("detail")).isEqualTo("reminder " + id + " does not exist");
        as(BILLING).get("/v1/reminders/" + id + "/events").then().statusCode(404);
        as(BARE_PRODUCT).get("/v1/reminders/" + id).then().statusCode(404);
        as(CHECKOUT).get("/v1/reminders/" + id).then().statusCode(200).body("tenant", equalTo("checkout"));
    }

    @Test
    void anotherTenantCannotCancelRescheduleOrRedriveAReminder() {
        long id = createdId(CHECKOUT, Api.reminderAt(inAnHour()));
        String fireAt = inAnHour().plus(Duration.ofMinutes(5)).truncatedTo(ChronoUnit.SECONDS).toString();

        as(BILLING).delete("/v1/reminders/" + id).then().statusCode(404);
        as(BILLING).body(Map.of("fire_at", fireAt)).patch("/v1/reminders/" + id).then().statusCode(404);
        as(BILLING).post("/v1/reminders/" + id + "/redrive").then().statusCode(404);

        JsonPath untouched = as(CHECKOUT).get("/v1/reminders/" + id).then().statusCode(200).extract().jsonPath();
        assertThat(untouched.getString("state")).isEqualTo("handed_off");
        assertThat(untouched.getInt("version")).isZero();
        assertThat(database.count("SELECT count(*) FROM reminder_events WHERE reminder_id = $1"
                + " AND type IN ('cancelled', 'rescheduled', 'redriven')", id)).isZero();
    }

    @Test
    void aListShowsTheCallersTenantOnly() {
        String user = Api.newUser();
        createdId(CHECKOUT, forUser(user, "trial_ending", inAnHour()));
        createdId(BILLING, forUser(user, "invoice_due", inAnHour()));

        assertThat(listFor(CHECKOUT, user)).extracting(item -> item.get("template")).containsExactly("trial_ending");
        assertThat(listFor(BILLING, user)).extracting(item -> item.get("template")).containsExactly("invoice_due");
        assertThat(listFor(OPS, user)).extracting(item -> item.get("tenant"))
                .containsExactlyInAnyOrder("checkout", "billing");
    }

    @Test
    void theSameTripleInTwoTenantsIsTwoRemindersEachWithItsOwnData() {
        String user = Api.newUser();
        Instant fireAt = inAnHour();
        Map<String, Object> squatter = forUser(user, "password_reset", fireAt);
        squatter.put("data", Map.of("link", "https://squatter.example/reset"));
        Map<String, Object> owner = forUser(user, "password_reset", fireAt);
        owner.put("data", Map.of("link", "https://checkout.example/reset"));

        long squatted = createdId(BILLING, squatter);
        JsonPath registered = as(CHECKOUT).body(owner).post("/v1/reminders").then().statusCode(201).extract()
                .jsonPath();

        assertThat(registered.getLong("id")).isNotEqualTo(squatted);
        assertThat(registered.getString("tenant")).isEqualTo("checkout");
        assertThat(registered.getString("data.link")).isEqualTo("https://checkout.example/reset");
        // the owner's repeat answers the owner's reminder, not the squatter's
        as(CHECKOUT).body(owner).post("/v1/reminders").then().statusCode(200)
                .body("id", equalTo((int) registered.getLong("id")));
        as(BILLING).get("/v1/reminders/" + squatted).then().statusCode(200)
                .body("data.link", equalTo("https://squatter.example/reset"));
    }

    @Test
    void aBatchRegistersWithinTheCallersTenant() {
        String user = Api.newUser();
        Instant fireAt = inAnHour();
        long billings = createdId(BILLING, forUser(user, "password_reset", fireAt));

        JsonPath batch = as(CHECKOUT).body(Map.of("items", List.of(forUser(user, "password_reset", fireAt),
                        forUser(user, "password_reset", fireAt)))).post("/v1/reminders/batch").then().statusCode(200)
                .extract().jsonPath();

        assertThat(batch.getList("items.status", Integer.class)).containsExactly(201, 200);
        assertThat(batch.getLong("items[0].reminder.id")).isNotEqualTo(billings)
                .isEqualTo(batch.getLong("items[1].reminder.id"));
        assertThat(batch.getList("items.reminder.tenant", String.class)).containsOnly("checkout");
    }

    @Test
    void aRotatedKeyKeepsItsTenantsReminders() {
        long id = createdId(CHECKOUT, Api.reminderAt(inAnHour()));

        as(CHECKOUT_NEXT).get("/v1/reminders/" + id).then().statusCode(200).body("tenant", equalTo("checkout"));
        as(CHECKOUT_NEXT).delete("/v1/reminders/" + id).then().statusCode(200).body("state", equalTo("cancelled"));

        List<Map<String, Object>> events = as(CHECKOUT).queryParam("limit", 500).get("/v1/reminders/" + id
                + "/events").then().statusCode(200).extract().jsonPath().getList("items");
        assertThat(events).filteredOn(event -> event.get("type").equals("registered"))
                .extracting(event -> event.get("by")).containsExactly("checkout");
        assertThat(events).filteredOn(event -> event.get("type").equals("cancelled"))
                .extracting(event -> event.get("by")).containsExactly("checkout/2027-01");
    }

    @Test
    void anotherTenantsQuietHoursNeitherShowNorSilence() {
        String user = Api.newUser();
        as(BILLING).body(quietAroundNow()).put("/v1/users/" + user + "/quiet-hours").then().statusCode(200)
                .body("tenant", equalTo("billing"));
        as(CHECKOUT).get("/v1/users/" + user + "/quiet-hours").then().statusCode(404);
        as(CHECKOUT).delete("/v1/users/" + user + "/quiet-hours").then().statusCode(204);

        Map<String, Object> dueNow = forUser(user, "trial_ending", Instant.now());
        dueNow.put("channel", "push");
        long checkouts = createdId(CHECKOUT, dueNow);
        Map<String, Object> billingsDue = forUser(user, "invoice_due", Instant.now());
        billingsDue.put("channel", "push");
        long billings = createdId(BILLING, billingsDue);

        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
            assertThat(stateOf(CHECKOUT, checkouts)).isEqualTo("sent");
            assertThat(stateOf(BILLING, billings)).isEqualTo("skipped");
        });
        assertThat(notifier().receivedFor(user)).extracting(received -> received.body().getString("template"))
                .containsExactly("trial_ending");
        as(BILLING).get("/v1/users/" + user + "/quiet-hours").then().statusCode(200);
    }

    @Test
    void anotherTenantsScheduleIsNotFound() {
        Map<String, Object> body = new HashMap<>();
        String user = Api.newUser();
        body.put("user_id", user);
        body.put("channel", "email");
        body.put("template", "water_plants");
        body.put("tz", "UTC");
        body.put("start", LocalDate.now(ZoneOffset.UTC).plusDays(1) + "T09:00");
        body.put("rrule", "FREQ=DAILY;COUNT=3");
        long id = as(CHECKOUT).body(body).post("/v1/schedules").then().statusCode(201).body("tenant",
                equalTo("checkout")).extract().jsonPath().getLong("id");

        as(BILLING).get("/v1/schedules/" + id).then().statusCode(404);
        as(BILLING).get("/v1/schedules/" + id + "/preview").then().statusCode(404);
        as(BILLING).post("/v1/schedules/" + id + "/pause").then().statusCode(404);
        as(BILLING).body(Map.of("data", Map.of("plant", "squatted"))).patch("/v1/schedules/" + id).then().statusCode(404);
        as(BILLING).delete("/v1/schedules/" + id).then().statusCode(404);
        assertThat(as(BILLING).queryParam("user_id", user).get("/v1/schedules").then().statusCode(200).extract()
                .jsonPath().getList("items")).isEmpty();

        as(CHECKOUT_NEXT).get("/v1/schedules/" + id).then().statusCode(200).body("state", equalTo("active"))
                .body("template", equalTo("water_plants"));
        assertThat(listFor(CHECKOUT, user)).isNotEmpty().extracting(item -> item.get("tenant")).containsOnly("checkout");
        assertThat(listFor(CHECKOUT, user)).extracting(item -> item.get("data")).doesNotContain(Map.of("plant",
                "squatted"));
        as(CHECKOUT).delete("/v1/schedules/" + id).then().statusCode(200);
    }

    @Test
    void anOperatorSeesEveryTenantAndFiltersByOne() {
        String user = Api.newUser();
        long checkouts = createdId(CHECKOUT, forUser(user, "trial_ending", inAnHour()));
        long billings = createdId(BILLING, forUser(user, "invoice_due", inAnHour()));

        as(OPS).get("/v1/reminders/" + billings).then().statusCode(200).body("tenant", equalTo("billing"));
        assertThat(as(OPS).queryParam("user_id", user).queryParam("tenant", "billing").get("/v1/admin/reminders")
                .then().statusCode(200).extract().jsonPath().getList("items.id", Long.class)).containsExactly(billings);
        assertThat(as(OPS).queryParam("user_id", user).get("/v1/admin/reminders").then().statusCode(200).extract()
                .jsonPath().getList("items.id", Long.class)).containsExactlyInAnyOrder(checkouts, billings);

        as(OPS).body(Map.of("user_id", user, "tenant", "checkout", "dry_run", false)).post("/v1/admin/cancel").then()
                .statusCode(200).body("matched", equalTo(1)).body("changed", equalTo(1));
        assertThat(stateOf(CHECKOUT, checkouts)).isEqualTo("cancelled");
        assertThat(stateOf(BILLING, billings)).isEqualTo("handed_off");

        // what an operator key registers is its own name's tenant's
        long own = createdId(OPS, Api.reminderAt(inAnHour()));
        as(OPS).get("/v1/reminders/" + own).then().statusCode(200).body("tenant", equalTo("ops"));
    }

    @Test
    void theOverviewCountsEachTenant() {
        createdId(BILLING, Api.reminderAt(inAnHour()));

        JsonPath overview = as(OPS).get("/v1/admin/overview").then().statusCode(200).extract().jsonPath();

        Map<String, Object> byTenant = overview.getMap("by_tenant");
        // every configured key's tenant is there, with or without reminders
        assertThat(byTenant).containsKeys("checkout", "billing", "split", "ops", "default");
        long billingsWaiting = overview.getLong("by_tenant.billing.counts.handed_off");
        assertThat(billingsWaiting).isPositive();
        assertThat(overview.getMap("by_tenant.billing")).containsKeys("counts", "dead_letters", "lateness_p99_ms");
        long total = byTenant.keySet().stream().mapToLong(tenant -> overview.getLong("by_tenant." + tenant
                + ".counts.handed_off")).sum();
        assertThat(overview.getLong("counts.handed_off")).isEqualTo(total);
    }

    @Test
    void aTenantFilterThatNamesNoTenantIsRefused() {
        as(OPS).queryParam("tenant", "no spaces").get("/v1/admin/reminders").then().statusCode(400)
                .contentType("application/problem+json").body("errors[0].field", equalTo("tenant"));
        as(OPS).body(Map.of("tenant", "", "dry_run", true)).post("/v1/admin/redrive").then().statusCode(400)
                .body("errors[0].field", equalTo("tenant"));
    }

    @Test
    void registrationsAreCountedByTenant() {
        double before = Metrics.value("tickler_reminders_registered_total{tenant=\"billing\"}");

        createdId(BILLING, Api.reminderAt(inAnHour()));

        assertThat(Metrics.value("tickler_reminders_registered_total{tenant=\"billing\"}")).isEqualTo(before + 1);
    }

    private static RequestSpecification as(String key) {
        return given().header("Authorization", "Bearer " + key).contentType(ContentType.JSON);
    }

    private static long createdId(String key, Map<String, Object> body) {
        return as(key).body(body).post("/v1/reminders").then().statusCode(201).extract().jsonPath().getLong("id");
    }

    private static Map<String, Object> forUser(String user, String template, Instant fireAt) {
        Map<String, Object> body = Api.reminderAt(fireAt);
        body.put("user_id", user);
        body.put("template", template);
        return body;
    }

    private static List<Map<String, Object>> listFor(String key, String user) {
        ValidatableResponse listed = as(key).queryParam("user_id", user).get("/v1/reminders").then().statusCode(200);
        return listed.extract().jsonPath().getList("items");
    }

    private static String stateOf(String key, long id) {
        return as(key).get("/v1/reminders/" + id).then().statusCode(200).extract().jsonPath().getString("state");
    }

    private static Instant inAnHour() {
        return Instant.now().plus(Duration.ofHours(1));
    }

    /** Skip every channel from an hour ago to two hours from now, UTC. */
    private static Map<String, Object> quietAroundNow() {
        DateTimeFormatter hhmm = DateTimeFormatter.ofPattern("HH:mm");
        LocalTime now = LocalTime.now(ZoneOffset.UTC);
        return Map.of("tz", "UTC", "policy", "skip", "windows", List.of(Map.of("start",
                now.minusHours(1).format(hhmm), "end", now.plusHours(2).format(hhmm))));
    }
}
