package dev.tickler.schedule.recurrence;

/** A recurrence rule that is malformed or outside the supported subset; the message names the offending part. */
public class InvalidRecurrenceException extends IllegalArgumentException {

    public InvalidRecurrenceException(String message) {
        super(message);
    }
}
