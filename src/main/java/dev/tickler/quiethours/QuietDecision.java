package dev.tickler.quiethours;

import java.time.Instant;

import dev.tickler.publish.ReminderPublisher;

/** What quiet hours make of a reminder about to be handed off or sent. */
public sealed interface QuietDecision {

    /** Outside every window (or urgent, or no quiet hours): goes as it would have. */
    record Allowed() implements QuietDecision {
    }

    /** Inside a window with the defer policy: goes at {@code until}, the end of the last contiguous window. */
    record Deferred(Instant until) implements QuietDecision {

        /**
         * When the queue should give it back: the window's end, or the queue's 7-day ceiling when that is sooner (the
         * message then comes back early, is found still inside the window and is deferred again).
         */
        public Instant dueAt(Instant now) {
            Instant ceiling = now.plus(ReminderPublisher.QUEUE_CEILING);
            return until.isAfter(ceiling) ? ceiling : until;
        }
    }

    /** Inside a window with the skip policy: never sent. */
    record Skipped() implements QuietDecision {
    }

    /** Inside a window whose end comes after the reminder's expiry: expiry wins. */
    record Expired(Instant until) implements QuietDecision {

        public String error() {
            return "quiet hours until " + until + " end after its expiry";
        }
    }

    QuietDecision ALLOWED = new Allowed();
    QuietDecision SKIPPED = new Skipped();
}
