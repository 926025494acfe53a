package dev.tickler.timeline;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** GET /v1/reminders/{id}/events: each event as {"at", "type", …its extra fields}; next as in lists. */
public record TimelinePageView(
        @Schema(required = true, type = SchemaType.ARRAY, implementation = Event.class)
        List<Map<String, Object>> items,
        @Schema(required = true, nullable = true,
                description = "The cursor to pass as after for the following page; null on the last page")
        String next) {

    /**
     * How the API document describes one item (docs/contract.md#timeline): at and type, and the fields of that type;
     * a field without a value is left out. The items themselves are maps, written as the events hold them.
     */
    @Schema(name = "TimelineEvent", requiredProperties = {"at", "type"})
    record Event(
            Instant at,
            EventType type,
            @Schema(description = "The key or operator that made the change") String by,
            String key,
            List<String> tags,
            String messageId,
            Long delaySeconds,
            String publishKey,
            @Schema(description = "api, sweep, retry, reconcile, redrive, release or quiet_hours") String via,
            String error,
            @Schema(description = "push or poll") String transport,
            Integer deliveryCount,
            @Schema(description = "ignored: stale, duplicate or finished; deferred and skipped: quiet_hours;"
                    + " reconciled: push_overdue or lease_expired") String reason,
            @Schema(description = "ignored: the message's version; rescheduled: the new one") Integer version,
            Integer attempt,
            @Schema(description = "The notifier's HTTP status, or timeout or connection",
                    oneOf = {Integer.class, String.class}) Object status,
            Long latencyMs,
            Instant from,
            Instant to,
            Instant until) {
    }

    public static TimelinePageView of(TimelinePage page) {
        return new TimelinePageView(page.entries().stream().map(entry -> view(entry.event())).toList(),
                page.next() == null ? null : page.next().toCursor());
    }

    private static Map<String, Object> view(TimelineEvent event) {
        Map<String, Object> view = new LinkedHashMap<>();
        view.put("at", event.at());
        view.put("type", event.type());
        view.putAll(event.detail());
        return view;
    }
}
