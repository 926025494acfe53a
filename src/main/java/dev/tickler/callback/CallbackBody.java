package dev.tickler.callback;

import java.time.Instant;

import jakarta.enterprise.context.ApplicationScoped;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.tickler.reminder.rest.ReminderView;

/**
 * A callback's body (docs/api.md, "Delivery callbacks"): {@code {"type": "reminder.sent", "timestamp": "…Z",
 * "data": {…}}}, where data is the reminder as GET /v1/reminders/{id} renders it, as the transition left it, written by
 * the API's own JSON mapper.
 */
@ApplicationScoped
public class CallbackBody {

    /** The body's fields; timestamp is when the transition happened, the same on every try. */
    public record Payload(String type, Instant timestamp, ReminderView data) {
    }

    private final ObjectMapper mapper;

    public CallbackBody(ObjectMapper mapper) {
        this.mapper = mapper;
    }

    String of(CallbackRepository.Claimed event) {
        try {
            return mapper.writeValueAsString(new Payload(event.type(), event.at(), ReminderView.of(event.reminder())));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a reminder view is plain JSON", e);
        }
    }
}
