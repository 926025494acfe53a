package dev.tickler.ledger;

import java.time.Instant;

/**
 * One notifier call as the timeline's attempt event records it (docs/contract.md#timeline): its number, its status as
 * JSON (an HTTP status, or "timeout" / "connection"), its latency, its error, and when the answer came.
 */
public record Attempt(int number, String statusJson, long latencyMillis, String error, Instant answeredAt) {
}
