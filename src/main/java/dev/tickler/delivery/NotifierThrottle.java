package dev.tickler.delivery;

import java.util.Optional;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

import io.smallrye.mutiny.Uni;

/**
 * How many notifier calls run at once and how fast they start: a call takes a concurrency slot, waits for its turn
 * in the pace, and only then goes out, so the time it waited is not taken for the provider's latency. Its answer
 * teaches both: a 2xx is a latency sample; a 429 is the provider refusing a send that counted against its quota, and
 * cuts the pace.
 */
final class NotifierThrottle {

    private final AdaptiveConcurrency concurrency;
    private final SendRate pace;
    private final LongSupplier nanoTime;

    NotifierThrottle(int concurrencyCeiling, Optional<Double> rateLimit, LongSupplier nanoTime, SendRate.Timer timer) {
        this.concurrency = new AdaptiveConcurrency(concurrencyCeiling);
        this.pace = new SendRate(rateLimit, nanoTime, timer);
        this.nanoTime = nanoTime;
    }

    Uni<NotifierOutcome> send(Supplier<Uni<NotifierOutcome>> call) {
        return concurrency.acquire().chain(slot -> pace.turn().chain(() -> {
            long started = nanoTime.getAsLong();
            pace.departed();
            return Uni.createFrom().<NotifierOutcome>deferred(call::get).invoke(outcome -> learn(slot, outcome, started));
        }).onTermination().invoke(slot::releaseUnmeasured));
    }

    private void learn(AdaptiveConcurrency.Slot slot, NotifierOutcome outcome, long started) {
        if (outcome instanceof NotifierOutcome.Delivered) {
            concurrency.pace(pace.perSecond());
            slot.release(nanoTime.getAsLong() - started);
        } else if (outcome instanceof NotifierOutcome.Retryable retryable && retryable.rateLimited()) {
            pace.rateLimited(started, retryable.retryAfter());
        }
    }

    int concurrencyLimit() {
        return concurrency.limit();
    }

    int inFlight() {
        return concurrency.inFlight();
    }

    /** Sends a second the pace allows now; infinite while unpaced. */
    double pacePerSecond() {
        return pace.perSecond();
    }
}
