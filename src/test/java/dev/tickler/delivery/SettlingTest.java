package dev.tickler.delivery;

import static dev.tickler.testing.NotifierResource.notifier;
import static dev.tickler.testing.Push.message;
import static dev.tickler.testing.Push.push;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;

import java.time.Duration;
import java.time.Instant;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;

import dev.tickler.testing.Api;
import dev.tickler.testing.Database;

/** What happens after the notifier answered cannot stop the row from being settled. */
@QuarkusTest
class SettlingTest {

    @Inject
    Database database;

    @Test
    void aSendWhoseLagNoMetricCanHoldIsStillSettledOnce() {
        // the API refuses such a fire_at now; rows from before that rule, or written by hand, must still settle
        String user = Api.newUser();
        long id = database.insertReminder(user, "handed_off", Instant.parse("1700-01-01T00:00:00Z"), "");

        push(message(id, 0)).statusCode(200).body("result", equalTo("claimed"));

        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> Api.get(id).body("state", equalTo("sent")));
        Api.get(id).body("attempts", equalTo(1));
        assertThat(notifier().receivedFor(user)).hasSize(1);
    }
}
