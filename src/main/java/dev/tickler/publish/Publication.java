package dev.tickler.publish;

import java.time.Instant;

/**
 * One hand-off of one reminder to the queue: which row and version, its hand-off number (part of the publish key),
 * the channel (which picks the queue), when the message should come back, and why it is published.
 */
public record Publication(long reminderId, int version, int handoff, String channel, Instant dueAt, Via via) {

    public ReminderMessage message() {
        return new ReminderMessage(reminderId, version);
    }

    public String publishKey() {
        return ReminderKeys.publishKey(reminderId, version, handoff);
    }
}
