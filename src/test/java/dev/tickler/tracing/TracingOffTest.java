package dev.tickler.tracing;

import static dev.tickler.testing.Api.createdId;
import static dev.tickler.testing.Api.publishedFor;
import static dev.tickler.testing.Api.pushReminderAt;
import static dev.tickler.testing.NotifierResource.notifier;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;

import dev.tickler.testing.Api;
import dev.tickler.testing.Database;
import dev.tickler.testing.InfraiEmulatorResource;
import dev.tickler.testing.NotifierStandIn.Received;

/** With tracing off (the default) nothing of it shows: the message, the notifier's request and the row are as before. */
@QuarkusTest
class TracingOffTest {

    @Inject
    Database database;

    @Test
    void messageNotifierRequestAndRowCarryNoTraceContext() {
        Map<String, Object> body = pushReminderAt(Instant.now());
        String user = (String) body.get("user_id");
        long id = createdId(body);

        await().atMost(Duration.ofSeconds(20)).until(() -> notifier().receivedFor(user).size() == 1);
        Api.get(id).statusCode(200);

        assertThat(publishedFor(id, InfraiEmulatorResource.PUSHED_QUEUE)).singleElement()
                .satisfies(message -> assertThat(message.body().fieldNames()).containsExactlyInAnyOrder("reminder_id",
                        "version", "tenant"));
        assertThat(notifier().receivedFor(user)).singleElement().extracting(Received::traceparent).isNull();
        assertThat(database.count("select count(*) from reminders where id = $1 and trace_context is null", id))
                .isEqualTo(1);
    }
}
