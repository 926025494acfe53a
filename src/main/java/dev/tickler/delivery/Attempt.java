package dev.tickler.delivery;

import static dev.tickler.db.SqlTimestamps.utc;

import java.time.Instant;

import io.vertx.mutiny.sqlclient.Tuple;

/**
 * One notifier call as the timeline's attempt event shows it (docs/contract.md#timeline): its number, its outcome, its
 * error, and when the answer came (a retry's hand-back is written later, after its publish).
 */
record Attempt(int number, NotifierOutcome outcome, String error, Instant answeredAt) {

    /** Appends number, status, latency, error and time, in that order, to a settling write's parameters. */
    Tuple appendTo(Tuple parameters) {
        return parameters.addValue(number).addValue(outcome.statusJson()).addValue(outcome.latencyMillis())
                .addValue(error).addValue(utc(answeredAt));
    }
}
