package dev.tickler.callback;

import java.util.Locale;

/** What one try of a callback came to; the kind's label is the {@code outcome} tag of tickler_callbacks_total. */
record TryOutcome(Kind kind, Integer status, String error) {

    enum Kind {
        /** A 2xx: the event is delivered. */
        DELIVERED,
        /** Any other status: tried again later. */
        REJECTED,
        /** No answer within tickler.callbacks.timeout: tried again later. */
        TIMEOUT,
        /** No connection, or a failure before an answer: tried again later. */
        ERROR,
        /** Not tried again: the next try would fall after the event's retention. */
        GIVEN_UP;

        String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    boolean delivered() {
        return kind == Kind.DELIVERED;
    }
}
