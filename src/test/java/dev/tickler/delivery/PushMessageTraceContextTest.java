package dev.tickler.delivery;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.ObjectMapper;

import dev.tickler.config.StrictJsonCustomizer;
import dev.tickler.publish.ReminderMessage;

/** The W3C trace context beside a message's ids: taken when it is text, ignored otherwise, never a refusal. */
class PushMessageTraceContextTest {

    private static final String TRACEPARENT = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

    private final PushMessages messages = new PushMessages(strictMapper());

    @Test
    void traceContextBesideTheIdsIsRead() throws Exception {
        assertThat(parse("{\"reminder_id\": 42, \"version\": 3, \"traceparent\": \"" + TRACEPARENT
                + "\", \"tracestate\": \"vendor=x\"}"))
                .isEqualTo(new ReminderMessage(42, 3, null, TRACEPARENT, "vendor=x"));
    }

    @Test
    void traceContextInsideAnEnvelopeIsRead() throws Exception {
        assertThat(parse("{\"message_id\": \"m-1\", \"delivery_count\": 2, \"payload\": {\"reminder_id\": 42,"
                + " \"version\": 3, \"traceparent\": \"" + TRACEPARENT + "\"}}"))
                .isEqualTo(new ReminderMessage(42, 3, null, TRACEPARENT, null));
    }

    @Test
    void traceContextThatIsNotTextIsIgnored() throws Exception {
        assertThat(parse("{\"reminder_id\": 42, \"version\": 3, \"traceparent\": 17, \"tracestate\": {\"a\": 1}}"))
                .isEqualTo(new ReminderMessage(42, 3));
        assertThat(parse("{\"reminder_id\": 42, \"version\": 3, \"traceparent\": null}"))
                .isEqualTo(new ReminderMessage(42, 3));
    }

    @Test
    void aMessageWithoutTraceContextReadsAsBefore() throws Exception {
        assertThat(parse("{\"reminder_id\": 42, \"version\": 3}")).isEqualTo(new ReminderMessage(42, 3, null, null, null));
    }

    private ReminderMessage parse(String json) throws PushMessages.Unreadable {
        return messages.parse(json.getBytes(StandardCharsets.UTF_8)).message();
    }

    private static ObjectMapper strictMapper() {
        ObjectMapper mapper = new ObjectMapper();
        new StrictJsonCustomizer().customize(mapper);
        return mapper;
    }
}
