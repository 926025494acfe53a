package dev.tickler.timeline;

import java.time.Instant;
import java.util.Map;

/** One entry of a reminder's history; the details are the type's extra fields (docs/contract.md#timeline). */
public record TimelineEvent(long reminderId, Instant at, EventType type, Map<String, Object> detail) {
}
