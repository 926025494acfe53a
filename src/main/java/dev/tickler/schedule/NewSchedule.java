package dev.tickler.schedule;

import java.time.Duration;
import java.util.Map;

import dev.tickler.ledger.Channel;

/** A validated POST /v1/schedules; expiresAfter may be null (occurrences never expire). */
public record NewSchedule(String userId, Channel channel, String template, Map<String, Object> data,
        Duration expiresAfter, ScheduleDefinition definition, CatchUp catchUp) {
}
