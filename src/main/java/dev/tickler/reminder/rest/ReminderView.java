package dev.tickler.reminder.rest;

import java.time.Instant;
import java.util.Map;

import dev.tickler.ledger.Channel;
import dev.tickler.ledger.ReminderRow;
import dev.tickler.ledger.ReminderState;
import dev.tickler.time.ReminderTiming;

/**
 * The reminder representation every response uses (docs/contract.md#registration-api); schedule_id and occurrence are null for a one-shot
 * reminder.
 */
public record ReminderView(long id, String tenant, String userId, Channel channel, String template, Instant fireAt, String tz,
        String fireAtLocal, Map<String, Object> data, boolean urgent, ReminderState state, int version, int attempts,
        String messageId, String lastError, Instant expiresAt, Instant createdAt, Instant updatedAt,
        Instant sentAt, Long scheduleId, Integer occurrence) {

    public static ReminderView of(ReminderRow reminder) {
        return new ReminderView(reminder.id(), reminder.tenant(), reminder.userId(), reminder.channel(), reminder.template(),
                reminder.fireAt(), reminder.tz(), ReminderTiming.renderLocal(reminder.fireAt(), reminder.tz()),
                reminder.data(), reminder.urgent(), reminder.state(), reminder.version(), reminder.attempts(), reminder.messageId(),
                reminder.lastError(), reminder.expiresAt(), reminder.createdAt(), reminder.updatedAt(),
                reminder.sentAt(), reminder.scheduleId(), reminder.occurrence());
    }
}
