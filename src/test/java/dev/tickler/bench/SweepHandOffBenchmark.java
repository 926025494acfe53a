package dev.tickler.bench;

import static dev.tickler.testing.InfraiEmulatorResource.emulator;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Map;

import jakarta.inject.Inject;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;

import dev.tickler.sweep.SweepReport;
import dev.tickler.sweep.SweepService;
import dev.tickler.testing.Api;
import dev.tickler.testing.Database;
import dev.tickler.testing.MovableClock;

/**
 * Hand-offs per second of a sweep against the emulator with 20 ms added to every publish: one sweep of 10,000 parked
 * reminders due inside the window, then three of 100,000. Prints its figures; run with
 * {@code mvn -Pbenchmark test -Dtest=SweepHandOffBenchmark}.
 */
@QuarkusTest
@Tag("benchmark")
@TestProfile(SweepHandOffBenchmark.Quiet.class)
class SweepHandOffBenchmark {

    /** As in production: no access log, no per-reminder logging. */
    public static class Quiet implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("quarkus.http.access-log.enabled", "false",
                    "quarkus.log.category.\"dev.tickler\".level", "ERROR");
        }
    }

    private static final Duration PUBLISH_LATENCY = Duration.ofMillis(20);
    /**
     * Reminders parked before each sweep: the first rounds run while the JIT still compiles the path (a native
     * executable has no such phase); the last ones show the rate once it has.
     */
    private static final int[] ROUNDS = { 10_000, 100_000, 100_000, 100_000 };

    @Inject
    SweepService sweep;

    @Inject
    Database database;

    @Inject
    MovableClock clock;

    @AfterEach
    void cleanUp() {
        clock.reset();
        emulator().clearFaults();
    }

    @Test
    void handOffsPerSecondWithTwentyMillisecondPublishes() {
        emulator().publishLatency(PUBLISH_LATENCY);
        System.out.println("sweep hand-off benchmark, " + PUBLISH_LATENCY.toMillis() + " ms per publish");
        int round = 0;
        for (int parked : ROUNDS) {
            round++;
            // due in 4 days and a second per row, inside the window and never overdue: the run hands off, and its
            // reconcile finds nothing of an earlier round to take over
            database.insertParked(Api.newUser(), parked, clock.instant().plus(Duration.ofDays(4)));

            SweepReport report = sweep.run().await().atMost(Duration.ofMinutes(10));

            double perSecond = report.handedOff() * 1000.0 / Math.max(1, report.durationMs());
            System.out.printf("round %d  parked %7d  handed off %7d  failed %d  reconciled %d  in %6d ms  = %7.0f"
                    + " hand-offs/s%n", round, parked, report.handedOff(), report.failedPublish(), report.reconciled(),
                    report.durationMs(), perSecond);
            assertThat(report.handedOff()).isEqualTo(parked);
            assertThat(report.failedPublish()).isZero();
            assertThat(report.reconciled()).isZero();
        }
    }
}
