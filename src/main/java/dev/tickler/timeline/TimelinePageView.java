package dev.tickler.timeline;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** GET /v1/reminders/{id}/events: each event as {"at", "type", …its extra fields}; next as in lists. */
public record TimelinePageView(List<Map<String, Object>> items, String next) {

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
