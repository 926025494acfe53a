package dev.tickler.publish;

/** The two idempotency keys (docs/contract.md#idempotency-keys), built in one place so they are never confused. */
public final class ReminderKeys {

    private ReminderKeys() {
    }

    /** Goes to the notifier as Idempotency-Key. */
    public static String sendKey(long reminderId, int version) {
        return "reminder:" + reminderId + ":" + version;
    }

    /** Goes to the queue's publish; the hand-off number makes a deliberate republish a new message. */
    public static String publishKey(long reminderId, int version, int handoff) {
        return sendKey(reminderId, version) + ":" + handoff;
    }
}
