package dev.tickler.delivery;

import java.io.IOException;

import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;

import dev.tickler.publish.ReminderMessage;

/**
 * Reads a queue message in either shape the push receiver takes (docs/contract.md#push-receiver): the published body,
 * or an envelope holding it (with the queue's {@code delivery_count} beside it, which the received event records).
 * Strictly: a body with anything after its JSON value, or a key given twice, is not a message Tickler published. The
 * ids are required; the tenant and the W3C trace context beside them are taken when they are text and ignored
 * otherwise, and so is a delivery count that is not a whole number.
 */
final class PushMessages {

    /** A message as it came from the queue: what Tickler published, and how often the queue has delivered it. */
    record Incoming(ReminderMessage message, Integer deliveryCount) {
    }

    /** The message is not one Tickler published; the detail says what is missing. */
    static final class Unreadable extends Exception {
        Unreadable(String detail) {
            super(detail, null, false, false);
        }
    }

    private final ObjectReader reader;

    PushMessages(ObjectMapper mapper) {
        this.reader = mapper.reader().with(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
                .with(StreamReadFeature.STRICT_DUPLICATE_DETECTION);
    }

    Incoming parse(byte[] body) throws Unreadable {
        JsonNode root;
        try {
            root = reader.readTree(body);
        } catch (IOException e) {
            throw new Unreadable("the body is not JSON");
        }
        return parse(root);
    }

    Incoming parse(JsonNode root) throws Unreadable {
        JsonNode message = unwrap(root);
        JsonNode count = message == root ? null : root.get("delivery_count");
        JsonNode id = message.get("reminder_id");
        if (id == null || !id.canConvertToLong() || !id.isIntegralNumber()) {
            throw new Unreadable("no integer reminder_id in the message");
        }
        JsonNode version = message.get("version");
        if (version == null || !version.isIntegralNumber() || !version.canConvertToInt()) {
            throw new Unreadable("no integer version in the message");
        }
        Integer deliveryCount = count != null && count.isIntegralNumber() && count.canConvertToInt()
                ? count.intValue() : null;
        return new Incoming(new ReminderMessage(id.longValue(), version.intValue(), textOrNull(message, "tenant"),
                textOrNull(message, "traceparent"), textOrNull(message, "tracestate")), deliveryCount);
    }

    /**
     * The tenant and the trace context are optional and never a reason to refuse a message: absent, not text, or
     * malformed (which the tracing reads as absent), the reminder is delivered all the same.
     */
    private static String textOrNull(JsonNode message, String field) {
        JsonNode value = message.get(field);
        return value != null && value.isTextual() ? value.textValue() : null;
    }

    /** The published body itself, or the one held under payload or body (as an object or as JSON text). */
    private JsonNode unwrap(JsonNode root) throws Unreadable {
        if (root == null || !root.isObject()) {
            throw new Unreadable("the body is not a JSON object");
        }
        if (root.has("reminder_id")) {
            return root;
        }
        for (String field : new String[] { "payload", "body" }) {
            JsonNode held = root.get(field);
            if (held != null && held.isTextual()) {
                try {
                    held = reader.readTree(held.textValue());
                } catch (IOException e) {
                    throw new Unreadable(field + " is text but not JSON");
                }
            }
            if (held != null && held.isObject()) {
                return held;
            }
        }
        return root;
    }
}
