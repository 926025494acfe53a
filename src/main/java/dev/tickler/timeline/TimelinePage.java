package dev.tickler.timeline;

import java.util.List;

/** Events of one reminder in the order they happened; {@code next} is where the next page starts, null on the last. */
public record TimelinePage(List<Entry> entries, EventPosition next) {

    public record Entry(long eventId, TimelineEvent event) {
    }
}
