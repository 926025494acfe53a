package dev.tickler.delivery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.tickler.config.StrictJsonCustomizer;
import dev.tickler.publish.ReminderMessage;

/**
 * The two shapes of a queue message (docs/contract.md#push-receiver), and every way a body is refused, with the detail
 * the push answer shows.
 */
class PushMessagesTest {

    private static final ObjectMapper MAPPER = strictMapper();
    private static final PushMessages MESSAGES = new PushMessages(MAPPER);

    private static final String NO_ID = "no integer reminder_id in the message";
    private static final String NO_VERSION = "no integer version in the message";

    @Test
    void theBareBodyIsReadAsPublished() throws Exception {
        assertThat(parse("{\"reminder_id\": 42, \"version\": 3}")).isEqualTo(new ReminderMessage(42, 3));
    }

    @Test
    void idsUpToTheLongCeilingAndVersionsUpToTheIntCeilingAreRead() throws Exception {
        assertThat(parse("{\"reminder_id\": 9223372036854775807, \"version\": 2147483647}"))
                .isEqualTo(new ReminderMessage(Long.MAX_VALUE, Integer.MAX_VALUE));
    }

    @Test
    void otherFieldsBesideTheIdsAreIgnored() throws Exception {
        assertThat(parse("{\"reminder_id\": 42, \"version\": 3, \"extra\": {\"a\": [1, 2]}}"))
                .isEqualTo(new ReminderMessage(42, 3));
    }

    @Test
    void anEnvelopeHoldingThePayloadAsAnObjectIsUnwrapped() throws Exception {
        assertThat(parse("{\"message_id\": \"m-1\", \"payload\": {\"reminder_id\": 42, \"version\": 3}}"))
                .isEqualTo(new ReminderMessage(42, 3));
    }

    @Test
    void anEnvelopeHoldingThePayloadAsJsonTextIsUnwrapped() throws Exception {
        assertThat(parse("{\"message_id\": \"m-1\", \"payload\": \"{\\\"reminder_id\\\": 42, \\\"version\\\": 3}\"}"))
                .isEqualTo(new ReminderMessage(42, 3));
    }

    @Test
    void anEnvelopeHoldingTheBodyAsAnObjectIsUnwrapped() throws Exception {
        assertThat(parse("{\"message_id\": \"m-1\", \"body\": {\"reminder_id\": 42, \"version\": 3}}"))
                .isEqualTo(new ReminderMessage(42, 3));
    }

    @Test
    void anEnvelopeHoldingTheBodyAsJsonTextIsUnwrapped() throws Exception {
        assertThat(parse("{\"message_id\": \"m-1\", \"body\": \"{\\\"reminder_id\\\": 42, \\\"version\\\": 3}\"}"))
                .isEqualTo(new ReminderMessage(42, 3));
    }

    @Test
    void payloadIsReadBeforeBody() throws Exception {
        assertThat(parse("{\"payload\": {\"reminder_id\": 1, \"version\": 1}, \"body\": {\"reminder_id\": 2, \"version\": 2}}"))
                .isEqualTo(new ReminderMessage(1, 1));
    }

    @Test
    void aTopLevelReminderIdMakesTheRootTheMessageEvenBesideAPayload() throws Exception {
        assertThat(parse("{\"reminder_id\": 1, \"version\": 1, \"payload\": {\"reminder_id\": 2, \"version\": 2}}"))
                .isEqualTo(new ReminderMessage(1, 1));
    }

    @Test
    void anythingAfterTheJsonValueIsRefused() {
        assertThatThrownBy(() -> parse("{\"reminder_id\": 1, \"version\": 2} garbage"))
                .isInstanceOf(PushMessages.Unreadable.class).hasMessage("the body is not JSON");
        assertThatThrownBy(() -> parse("{\"reminder_id\": 1, \"version\": 2}{}"))
                .isInstanceOf(PushMessages.Unreadable.class).hasMessage("the body is not JSON");
    }

    @Test
    void aKeyGivenTwiceIsRefused() {
        assertThatThrownBy(() -> parse("{\"reminder_id\": 1, \"reminder_id\": 2, \"version\": 0}"))
                .isInstanceOf(PushMessages.Unreadable.class).hasMessage("the body is not JSON");
    }

    @Test
    void theSameMessageReadsTheSameFromBytesAndFromATree() throws Exception {
        String json = "{\"payload\": \"{\\\"reminder_id\\\": 7, \\\"version\\\": 0}\"}";

        assertThat(MESSAGES.parse(MAPPER.readTree(json)).message()).isEqualTo(new ReminderMessage(7, 0));
        assertThat(parse(json)).isEqualTo(new ReminderMessage(7, 0));
    }

    @Test
    void aBodyThatIsNotJsonIsRefused() {
        assertRefused("reminder 42, version 3", "the body is not JSON");
        assertRefused("{\"reminder_id\": 42, \"version\": 3", "the body is not JSON");
    }

    @Test
    void aBodyThatIsJsonButNotAnObjectIsRefused() {
        assertRefused("[{\"reminder_id\": 42, \"version\": 3}]", "the body is not a JSON object");
        assertRefused("42", "the body is not a JSON object");
        assertRefused("\"{\\\"reminder_id\\\": 42, \\\"version\\\": 3}\"", "the body is not a JSON object");
        assertRefused("null", "the body is not a JSON object");
    }

    @Test
    void aMissingPayloadTreeIsRefusedAsNotAnObject() {
        // a consumed message without a payload reaches the tree form as null
        assertThatThrownBy(() -> MESSAGES.parse((JsonNode) null))
                .isInstanceOf(PushMessages.Unreadable.class)
                .hasMessage("the body is not a JSON object");
    }

    @Test
    void aPayloadOrBodyThatIsTextButNotJsonIsRefusedByName() {
        assertRefused("{\"payload\": \"reminder 42\"}", "payload is text but not JSON");
        assertRefused("{\"body\": \"reminder 42\"}", "body is text but not JSON");
        assertRefused("{\"payload\": \"{\\\"reminder_id\\\": 42\"}", "payload is text but not JSON");
    }

    @Test
    void aMessageWithoutReminderIdIsRefused() {
        assertRefused("{\"version\": 3}", NO_ID);
        assertRefused("{}", NO_ID);
        assertRefused("{\"payload\": {\"version\": 3}}", NO_ID);
        assertRefused("{\"payload\": [42, 3]}", NO_ID);
        assertRefused("{\"reminder_id\": null, \"version\": 3}", NO_ID);
    }

    @Test
    void aReminderIdThatIsAFloatIsRefused() {
        assertRefused("{\"reminder_id\": 42.0, \"version\": 3}", NO_ID);
        assertRefused("{\"reminder_id\": 42.5, \"version\": 3}", NO_ID);
        assertRefused("{\"reminder_id\": 4.2e1, \"version\": 3}", NO_ID);
    }

    @Test
    void aReminderIdThatIsAStringOrABooleanIsRefused() {
        assertRefused("{\"reminder_id\": \"42\", \"version\": 3}", NO_ID);
        assertRefused("{\"reminder_id\": true, \"version\": 3}", NO_ID);
        assertRefused("{\"reminder_id\": {\"id\": 42}, \"version\": 3}", NO_ID);
    }

    @Test
    void aReminderIdBeyondTheLongRangeIsRefused() {
        assertRefused("{\"reminder_id\": 9223372036854775808, \"version\": 3}", NO_ID);
        assertRefused("{\"reminder_id\": 123456789012345678901234567890, \"version\": 3}", NO_ID);
        assertRefused("{\"reminder_id\": -9223372036854775809, \"version\": 3}", NO_ID);
    }

    @Test
    void aMessageWithoutAnIntegerVersionIsRefused() {
        assertRefused("{\"reminder_id\": 42}", NO_VERSION);
        assertRefused("{\"reminder_id\": 42, \"version\": null}", NO_VERSION);
        assertRefused("{\"reminder_id\": 42, \"version\": \"3\"}", NO_VERSION);
        assertRefused("{\"reminder_id\": 42, \"version\": 3.0}", NO_VERSION);
        assertRefused("{\"payload\": {\"reminder_id\": 42}}", NO_VERSION);
    }

    @Test
    void aVersionBeyondTheIntRangeIsRefused() {
        assertRefused("{\"reminder_id\": 42, \"version\": 2147483648}", NO_VERSION);
        assertRefused("{\"reminder_id\": 42, \"version\": -2147483649}", NO_VERSION);
        assertRefused("{\"reminder_id\": 42, \"version\": 9223372036854775808}", NO_VERSION);
    }

    @Test
    void theReminderIdIsCheckedBeforeTheVersion() {
        assertRefused("{\"reminder_id\": \"42\", \"version\": \"3\"}", NO_ID);
    }

    private static ReminderMessage parse(String json) throws PushMessages.Unreadable {
        return MESSAGES.parse(json.getBytes(StandardCharsets.UTF_8)).message();
    }

    @Test
    void theEnvelopesDeliveryCountIsReadBesideTheMessage() throws Exception {
        byte[] envelope = "{\"message_id\": \"m1\", \"delivery_count\": 3, \"payload\": {\"reminder_id\": 7, \"version\": 0}}"
                .getBytes(StandardCharsets.UTF_8);

        assertThat(MESSAGES.parse(envelope)).isEqualTo(new PushMessages.Incoming(new ReminderMessage(7, 0), 3));
    }

    @Test
    void aDeliveryCountIsOnlyTheEnvelopesAndOnlyAWholeNumber() throws Exception {
        assertThat(MESSAGES.parse("{\"reminder_id\": 7, \"version\": 0, \"delivery_count\": 3}"
                .getBytes(StandardCharsets.UTF_8)).deliveryCount()).isNull();
        assertThat(MESSAGES.parse("{\"delivery_count\": \"3\", \"body\": {\"reminder_id\": 7, \"version\": 0}}"
                .getBytes(StandardCharsets.UTF_8)).deliveryCount()).isNull();
    }

    private static void assertRefused(String json, String detail) {
        assertThatThrownBy(() -> parse(json))
                .as("refusal of %s", json)
                .isInstanceOf(PushMessages.Unreadable.class)
                .hasMessage(detail);
    }

    /** The application's mapper is Quarkus's with this customizer; reading a tree does not depend on anything else. */
    private static ObjectMapper strictMapper() {
        ObjectMapper mapper = new ObjectMapper();
        new StrictJsonCustomizer().customize(mapper);
        return mapper;
    }
}
