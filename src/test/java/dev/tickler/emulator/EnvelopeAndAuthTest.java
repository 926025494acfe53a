package dev.tickler.emulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tickler.emulator.InfraiTestClient.Reply;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class EnvelopeAndAuthTest {

    private static final String API_KEY = "test-api-key";
    private static final JsonObject REMINDER = new JsonObject().put("reminder_id", 8801).put("version", 0);

    private InfraiEmulator emulator;

    @AfterEach
    void stopEmulator() {
        emulator.close();
    }

    @Test
    void successAnswersOkEnvelopeWithData() {
        emulator = InfraiEmulator.start(EmulatorOptions.defaults());

        Reply reply = new InfraiTestClient(emulator).publishReply("reminders", REMINDER, 0, "k1");

        assertEquals(200, reply.status());
        assertEquals("application/json", reply.header("content-type"));
        assertEquals(true, reply.json().getBoolean("ok"));
        assertNotNull(reply.data().getString("message_id"));
        assertFalse(reply.json().containsKey("error"));
    }

    @Test
    void unknownPathAnswersNotFoundErrorEnvelope() {
        emulator = InfraiEmulator.start(EmulatorOptions.defaults());

        Reply reply = new InfraiTestClient(emulator).get("/v1/queue/nothing-here");

        assertEquals(404, reply.status());
        assertEquals("application/json", reply.header("content-type"));
        assertEquals(false, reply.json().getBoolean("ok"));
        assertEquals("NOT_FOUND", reply.errorCode());
        assertFalse(reply.errorMessage().isBlank());
        assertFalse(reply.json().containsKey("data"));
    }

    @Test
    void bodyThatIsNotAJsonObjectIsInvalidRequest() {
        emulator = InfraiEmulator.start(EmulatorOptions.defaults());
        InfraiTestClient client = new InfraiTestClient(emulator);

        for (String body : new String[] {"not json", "[1, 2]", "null", ""}) {
            Reply reply = client.postRaw("/v1/queue/consume", body);

            assertEquals(400, reply.status(), body);
            assertEquals("INVALID_REQUEST", reply.errorCode(), body);
            assertEquals("request body must be a JSON object", reply.errorMessage(), body);
        }
    }

    @Test
    void missingApiKeyIsUnauthorized() {
        emulator = InfraiEmulator.start(EmulatorOptions.defaults().withApiKey(API_KEY));

        Reply reply = new InfraiTestClient(emulator.baseUrl(), null).publishReply("reminders", REMINDER, 0, "k1");

        assertEquals(401, reply.status());
        assertEquals("UNAUTHORIZED", reply.errorCode());
        assertTrue(emulator.published("reminders").isEmpty());
    }

    @Test
    void wrongApiKeyIsUnauthorized() {
        emulator = InfraiEmulator.start(EmulatorOptions.defaults().withApiKey(API_KEY));

        Reply reply = new InfraiTestClient(emulator.baseUrl(), "wrong-key").get("/v1/account/usage");

        assertEquals(401, reply.status());
        assertEquals("UNAUTHORIZED", reply.errorCode());
    }

    @Test
    void configuredApiKeyIsAccepted() {
        emulator = InfraiEmulator.start(EmulatorOptions.defaults().withApiKey(API_KEY));

        Reply reply = new InfraiTestClient(emulator.baseUrl(), API_KEY).publishReply("reminders", REMINDER, 0, "k1");

        assertEquals(200, reply.status());
        assertEquals(1, emulator.published("reminders").size());
    }

    @Test
    void withoutConfiguredApiKeyRequestsNeedNoAuthorization() {
        emulator = InfraiEmulator.start(EmulatorOptions.defaults());

        Reply reply = new InfraiTestClient(emulator.baseUrl(), null).get("/v1/queue/stats/reminders");

        assertEquals(200, reply.status());
        assertEquals("reminders", reply.data().getString("queue"));
    }

    @Test
    void usageCountsRequestsAndPublishesAndReportsCredit() {
        emulator = InfraiEmulator.start(EmulatorOptions.defaults());
        InfraiTestClient client = new InfraiTestClient(emulator);
        client.publish("reminders", REMINDER, 0, "k1");
        client.publish("reminders", REMINDER, 0, "k2");
        client.stats("reminders");

        Reply reply = client.get("/v1/account/usage");

        assertEquals(200, reply.status());
        assertEquals(4, reply.data().getLong("requests"));
        assertEquals(2, reply.data().getLong("publishes"));
        assertEquals(1000.0, reply.data().getDouble("credit"));
    }
}
