package dev.tickler.testing;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

import jakarta.annotation.Priority;
import jakarta.enterprise.inject.Alternative;
import jakarta.inject.Singleton;

import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;

import dev.tickler.time.Pause;

/**
 * The application's pauses in tests: every wait still happens for real, and each one asked for is recorded with
 * the moment it was asked for, so a test asserts the waits the code chose instead of measuring gaps in wall time.
 * A pause does not say whose it is; a test finds its own by the moments between which it was asked for, for
 * example between two of its reminder's notifier requests.
 */
@Alternative
@Priority(1)
@Singleton
public class RecordingPause extends Pause {

    /** One wait asked for, and when (wall time, as the notifier stand-in records its requests). */
    public record Requested(Instant at, Duration duration) {
    }

    private final Queue<Requested> requested = new ConcurrentLinkedQueue<>();

    public RecordingPause(Vertx vertx) {
        super(vertx);
    }

    @Override
    public Uni<Void> of(Duration wait) {
        requested.add(new Requested(Instant.now(), wait));
        return super.of(wait);
    }

    /** The waits asked for after {@code from} and before {@code to}, in the order they were asked for. */
    public List<Duration> between(Instant from, Instant to) {
        return requested.stream()
                .filter(pause -> pause.at().isAfter(from) && pause.at().isBefore(to))
                .map(Requested::duration)
                .toList();
    }
}
