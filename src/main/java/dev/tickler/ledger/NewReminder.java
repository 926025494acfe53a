package dev.tickler.ledger;

import java.time.Duration;
import java.time.Instant;

import java.util.Map;

/** A validated registration; expiresAfter may be null (never expires); an urgent one ignores quiet hours. */
public record NewReminder(String userId, Channel channel, String template, Instant fireAt, String tz,
        Map<String, Object> data, Duration expiresAfter, boolean urgent) {
}
