package dev.tickler.reminder.rest;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import dev.tickler.ledger.Channel;
import dev.tickler.ledger.ReminderRow;
import dev.tickler.ledger.ReminderState;
import dev.tickler.time.ReminderTiming;

/**
 * The reminder representation every response uses (docs/contract.md#registration-api); schedule_id and occurrence are null for a one-shot
 * reminder, key is null for one registered without a key, and tags is empty when it has none.
 */
public record ReminderView(long id, String tenant, @Schema(nullable = true) String key, List<String> tags,
        String userId, Channel channel, String template, Instant fireAt, String tz, String fireAtLocal,
        Map<String, Object> data, boolean urgent, ReminderState state, int version, int attempts,
        @Schema(nullable = true) String messageId, @Schema(nullable = true) String lastError,
        @Schema(nullable = true) Instant expiresAt, Instant createdAt, Instant updatedAt,
        @Schema(nullable = true) Instant sentAt, @Schema(nullable = true) Long scheduleId,
        @Schema(nullable = true) Integer occurrence) {

    public static ReminderView of(ReminderRow reminder) {
        return new ReminderView(reminder.id(), reminder.tenant(), reminder.key(), reminder.tags(), reminder.userId(),
                reminder.channel(), reminder.template(),
                reminder.fireAt(), reminder.tz(), ReminderTiming.renderLocal(reminder.fireAt(), reminder.tz()),
                reminder.data(), reminder.urgent(), reminder.state(), reminder.version(), reminder.attempts(), reminder.messageId(),
                reminder.lastError(), reminder.expiresAt(), reminder.createdAt(), reminder.updatedAt(),
                reminder.sentAt(), reminder.scheduleId(), reminder.occurrence());
    }
}
