package dev.tickler.ledger;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * Occurrences of one schedule to create as reminders in one statement: what they share, and per occurrence its number,
 * fire_at and expires_at (null: never expires).
 */
public record Occurrences(long scheduleId, String tenant, String userId, Channel channel, String template, String tz,
        Map<String, Object> data, List<Integer> numbers, List<Instant> fireAts, List<Instant> expiresAts) {

    public int size() {
        return numbers.size();
    }
}
