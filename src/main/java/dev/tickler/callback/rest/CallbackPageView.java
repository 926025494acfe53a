package dev.tickler.callback.rest;

import java.time.Instant;
import java.util.List;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import dev.tickler.callback.CallbackService;
import dev.tickler.reminder.rest.PageParameters;

/** A page of GET /v1/callbacks; next is the cursor to pass as "after", null on the last page. */
public record CallbackPageView(@Schema(required = true) List<Item> items,
        @Schema(required = true, nullable = true, description = PageParameters.NEXT) String next) {

    /**
     * One event: id is the webhook-id its tries carried; next_attempt_at is when it is due again (null once delivered,
     * or once given up).
     */
    @Schema(name = "CallbackEvent")
    public record Item(long id, String type, long reminderId, Instant createdAt, int attempts,
            @Schema(nullable = true) Instant deliveredAt, @Schema(nullable = true) Integer lastStatus,
            @Schema(nullable = true) String lastError, @Schema(nullable = true) Instant nextAttemptAt) {
    }

    static CallbackPageView of(CallbackService.Page page) {
        return new CallbackPageView(page.items().stream().map(event -> new Item(event.id(), event.type(),
                        event.reminderId(), event.createdAt(), event.attempts(), event.deliveredAt(), event.lastStatus(),
                        event.lastError(), event.nextAttemptAt())).toList(),
                page.next() == null ? null : page.next().toCursor());
    }
}
