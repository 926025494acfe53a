package dev.tickler.delivery;

import static dev.tickler.testing.Api.createdId;
import static dev.tickler.testing.Api.pushReminderAt;
import static dev.tickler.testing.NotifierResource.notifier;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;

import dev.tickler.testing.NotifierStandIn.Received;
import dev.tickler.testing.NotifierStandIn.Reply;
import dev.tickler.testing.SigningAndReconcileProfile;

/**
 * Held deliveries start round-robin across tenants (docs/delivery.md, "Fair delivery"): against a provider taken two
 * calls at a time, 600 ms each, tenant default's twenty due together and tenant rush's two due a second later; first
 * come, first served would send rush's last, after about 6 s of default's.
 */
@QuarkusTest
@TestProfile(SigningAndReconcileProfile.class)
class FairTurnsTest {

    private static final int CAMPAIGN = 20;

    @Test
    void anotherTenantsRemindersTakeTurnsWithACampaignInsteadOfWaitingForIt() {
        Instant dueAt = Instant.now().plusSeconds(2);
        List<String> campaign = new ArrayList<>();
        for (int i = 0; i < CAMPAIGN; i++) {
            Map<String, Object> body = pushReminderAt(dueAt);
            campaign.add((String) body.get("user_id"));
            notifier().script((String) body.get("user_id"), Reply.okAfter(Duration.ofMillis(600)));
            createdId(body);
        }
        List<String> rush = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            Map<String, Object> body = pushReminderAt(dueAt.plusSeconds(1));
            rush.add((String) body.get("user_id"));
            given().header("Authorization", "Bearer " + SigningAndReconcileProfile.RUSH_KEY)
                    .contentType(ContentType.JSON).body(body).post("/v1/reminders").then().statusCode(201);
        }

        await().atMost(Duration.ofSeconds(60)).until(() -> rush.stream().allMatch(user -> !notifier()
                .receivedFor(user).isEmpty()) && campaign.stream().allMatch(user -> !notifier().receivedFor(user)
                .isEmpty()));

        Instant lastRush = rush.stream().map(user -> notifier().receivedFor(user).get(0).at())
                .max(Comparator.naturalOrder()).orElseThrow();
        List<Instant> campaignSends = campaign.stream().map(user -> notifier().receivedFor(user).get(0))
                .map(Received::at).toList();
        long campaignAfterRush = campaignSends.stream().filter(at -> at.isAfter(lastRush)).count();
        // round-robin: rush's two go out among the next few sends; first come, first served sends them last
        assertThat(campaignAfterRush).as("the campaign's sends after rush's last").isGreaterThanOrEqualTo(4);
    }
}
