package dev.tickler.delivery;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.PriorityQueue;
import java.util.Random;
import java.util.function.BooleanSupplier;
import java.util.function.LongUnaryOperator;
import java.util.stream.LongStream;

import org.junit.jupiter.api.Test;

import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.subscription.UniEmitter;

/**
 * The throttle as a whole, on a clock and an event loop the test moves: a campaign's reminders are claimed and sent
 * through it to a simulated provider, and every timer and every answer runs when the simulated instance gets to it, on
 * time or late (a push flood on shared cores, a collection pause). Nothing sleeps: a drain of tens of seconds is
 * simulated in a fraction of one.
 */
class NotifierThrottleTest {

    private static final long MS = 1_000_000L;
    private static final long SECOND = 1_000_000_000L;

    @Test
    void aQuotaNoOneConfiguredIsLearnedFromThe429sAndKept() {
        Simulation simulation = new Simulation(Optional.empty(), new QuotaProvider(1_000, 100 * MS));

        simulation.claim(20_000, 3_000);
        simulation.runUntilSent(20_000, 60 * SECOND);

        // 20 s at the quota; the pace learned from the first 429s, then kept a little under it
        assertThat(simulation.drainSeconds()).isLessThan(21.5);
        // most of them in the first second, before the provider had said anything
        assertThat(simulation.refusedShare()).isLessThan(0.05);
        assertThat(simulation.throttle.pacePerSecond()).isBetween(900.0, 1_050.0);
    }

    @Test
    void theIssuesCampaignWithoutARateLimitDrainsWithinAThirdOfTheProvidersMinimum() {
        Simulation simulation = new Simulation(Optional.empty(), new QuotaProvider(1_000, 100 * MS));
        simulation.lag = pushFlood(3 * SECOND, 150 * MS);

        simulation.claim(10_000, 4_000);
        simulation.runUntilSent(10_000, 60 * SECOND);

        // 10 s at the quota
        assertThat(simulation.drainSeconds()).isLessThan(1.3 * 10);
        assertThat(simulation.refusedShare()).isLessThan(0.05);
    }

    @Test
    void theIssuesCampaignWithTheRateLimitConfiguredDrainsWithinASeventhOfTheProvidersMinimum() {
        Simulation simulation = new Simulation(Optional.of(990.0), new QuotaProvider(1_000, 100 * MS));
        simulation.lag = pushFlood(3 * SECOND, 150 * MS);

        simulation.claim(10_000, 4_000);
        simulation.runUntilSent(10_000, 60 * SECOND);

        assertThat(simulation.drainSeconds()).isLessThan(1.15 * 10);
        assertThat(simulation.provider.refused).isZero();
    }

    @Test
    void theFirst429CutsThePaceToWhatTheProviderTookNotToWhatHadAnsweredYet() {
        Simulation simulation = new Simulation(Optional.empty(), new QuotaProvider(1_000, 100 * MS));

        simulation.claim(5_000, 100_000);
        simulation.runUntil(() -> simulation.throttle.pacePerSecond() != Double.POSITIVE_INFINITY, 10 * SECOND);

        // a tenth of a second's sends were still out, and are counted as taken: 0.95 × 1,000, not 0.95 × 900
        assertThat(simulation.throttle.pacePerSecond()).isBetween(930.0, 1_000.0);
    }

    @Test
    void aPushFloodOnTheCoresIsNotReadAsTheProvidersQueue() {
        Simulation simulation = new Simulation(Optional.empty(), new QuotaProvider(1_000, 100 * MS));
        simulation.lag = pushFlood(11 * SECOND, 150 * MS);

        simulation.claim(20_000, 2_000);
        simulation.runUntilSent(20_000, 60 * SECOND);

        assertThat(simulation.lowestLimitAfter(2 * SECOND, 11 * SECOND)).isGreaterThan(150);
        assertThat(simulation.sentBetween(2 * SECOND, 11 * SECOND)).isGreaterThan(8_000);
        assertThat(simulation.drainSeconds()).isLessThan(22.0);
    }

    @Test
    void aPushFloodIsNotReadAsTheQueueOfAProviderThatAnswersAtOnce() {
        // answers in a fifth of a millisecond, as a provider beside the instance does; the flood reads each answer and
        // runs each timer up to 3 ms late, more than ten times that latency
        Simulation simulation = new Simulation(Optional.empty(), new QuotaProvider(Integer.MAX_VALUE, MS / 5));
        simulation.lag = pushFlood(60 * SECOND, 3 * MS);

        simulation.claim(50_000, 20_000);
        simulation.runUntilSent(50_000, 60 * SECOND);

        // about 34 calls out at once carry 20,000 a second at 1.7 ms; at a limit of one or two they take 25-50 s
        assertThat(simulation.drainSeconds()).isLessThan(2.6);
        assertThat(simulation.lowestLimitAfter(SECOND, 2 * SECOND)).isGreaterThanOrEqualTo(16);
    }

    @Test
    void aProviderThatAnswersAtOnceButWorksOnOneCallAtATimeKeepsFewCallsOut() {
        Simulation simulation = new Simulation(Optional.empty(), new QueueingProvider(1, MS / 2));

        simulation.claim(10_000, 100_000);
        simulation.runUntil(() -> false, 3 * SECOND);

        // half a millisecond a call, one at a time: a sixth call out waits more than the 2 ms the limit forgives
        assertThat(simulation.highestLimitAfter(SECOND, 3 * SECOND)).isLessThanOrEqualTo(16);
        assertThat(simulation.sentBetween(SECOND, 3 * SECOND)).isGreaterThan(3_600);
    }

    @Test
    void aCollectionPauseIsNotReadAsTheProvidersQueue() {
        Simulation simulation = new Simulation(Optional.empty(), new QuotaProvider(Integer.MAX_VALUE, 500 * MS));
        simulation.claim(20_000, 100_000);
        simulation.runUntil(() -> false, 5 * SECOND);
        assertThat(simulation.throttle.concurrencyLimit()).isEqualTo(256);

        // everything due in the next 400 ms runs after it, timers and answers alike
        simulation.lag = due -> due >= 5 * SECOND && due < 5_400 * MS ? 5_400 * MS - due : 0;
        simulation.runUntil(() -> false, 8 * SECOND);

        assertThat(simulation.lowestLimitAfter(5 * SECOND, 8 * SECOND)).isEqualTo(256);
    }

    @Test
    void aProviderWithoutAQuotaGetsEveryCallTheCeilingAllows() {
        Simulation simulation = new Simulation(Optional.empty(), new QuotaProvider(Integer.MAX_VALUE, 500 * MS));

        simulation.claim(10_000, 3_000);
        simulation.runUntilSent(10_000, 60 * SECOND);

        // 256 calls of 500 ms: 512 a second, 19.5 s for 10,000, after two seconds of doubling from 16
        assertThat(simulation.drainSeconds()).isLessThan(22.0);
        assertThat(simulation.provider.refused).isZero();
        assertThat(simulation.throttle.pacePerSecond()).isInfinite();
    }

    @Test
    void aProviderThatQueuesCallsGetsAboutAsManyAsItWorksOn() {
        Simulation simulation = new Simulation(Optional.empty(), new QueueingProvider(64, 100 * MS));

        simulation.claim(10_000, 100_000);
        simulation.runUntil(() -> false, 5 * SECOND);

        // 64 workers of 100 ms: 640 a second whatever the calls out, which only make the queue there longer; the
        // limit stays within the tolerance of them, give or take the last cautious step up
        int most = (int) (64 * (1 + AdaptiveConcurrency.TOLERANCE) * (1 + AdaptiveConcurrency.CAUTIOUS_GROWTH));
        assertThat(simulation.lowestLimitAfter(2 * SECOND, 5 * SECOND)).isGreaterThanOrEqualTo(64);
        assertThat(simulation.highestLimitAfter(2 * SECOND, 5 * SECOND)).isLessThanOrEqualTo(most);
    }

    @Test
    void withTheQuotaConfiguredTheDrainRunsAtIt() {
        Simulation simulation = new Simulation(Optional.of(990.0), new QuotaProvider(1_000, 100 * MS));

        simulation.claim(20_000, 3_000);
        simulation.runUntilSent(20_000, 60 * SECOND);

        assertThat(simulation.drainSeconds()).isLessThan(21.0);
    }

    @Test
    void timersThatFireLateAreReadAsThisInstancesOwnDelay() {
        Simulation simulation = new Simulation(Optional.empty(), new QuotaProvider(Integer.MAX_VALUE, 100 * MS));
        // the instance stalls from 100 ms to 200 ms: the timer due at 100 ms fires at 200 ms
        simulation.lag = due -> due >= 100 * MS && due < 200 * MS ? 200 * MS - due : 0;
        simulation.claim(1, 100_000);
        simulation.runUntil(() -> false, 300 * MS);

        assertThat(simulation.throttle.localDelaySeconds()).isEqualTo(0.1);
    }

    @Test
    void aCallShorterThanTheProbesSpacingIsJudgedByTheProbesJustBeforeIt() {
        long[] now = { 0 };
        Deque<Runnable> timers = new ArrayDeque<>();
        NotifierThrottle.LocalDelay delay = new NotifierThrottle.LocalDelay(() -> now[0],
                (delayNanos, action) -> timers.add(action));
        delay.watch();
        // the probe due at 20 ms fires 3 ms late
        now[0] = 23 * MS;
        timers.poll().run();

        long started = 30 * MS;
        now[0] = started + MS / 5;

        assertThat(delay.since(started)).isEqualTo(3 * MS);
    }

    @Test
    void noTimerIsSetOnceNoCallGoesOut() {
        Simulation simulation = new Simulation(Optional.empty(), new QuotaProvider(Integer.MAX_VALUE, 100 * MS));
        simulation.claim(10, 100_000);
        simulation.runUntil(() -> false, 5 * SECOND);

        assertThat(simulation.events).isEmpty();
    }

    /** Until {@code end}, every timer and every answer runs up to {@code most} late, as the claims flood in. */
    private static LongUnaryOperator pushFlood(long end, long most) {
        Random random = new Random(29);
        return due -> due < end ? (long) (random.nextDouble() * most) : 0;
    }

    /** A provider's answer to one call: how long after the call it comes, and what it says. */
    private record Answer(long afterNanos, NotifierOutcome outcome) {
    }

    /** A simulated provider: what it answers a call made now, and what it was asked and refused. */
    private abstract static class Provider {
        long calls;
        long refused;

        abstract Answer call(long now);
    }

    /** Takes {@code quota} calls in any sliding second and answers them after {@code latency}; 429 at once beyond. */
    private static final class QuotaProvider extends Provider {

        private final int quota;
        private final long latency;
        private final Deque<Long> lastSecond = new ArrayDeque<>();

        QuotaProvider(int quota, long latency) {
            this.quota = quota;
            this.latency = latency;
        }

        @Override
        Answer call(long now) {
            calls++;
            while (!lastSecond.isEmpty() && lastSecond.peekFirst() <= now - SECOND) {
                lastSecond.pollFirst();
            }
            if (quota != Integer.MAX_VALUE && lastSecond.size() >= quota) {
                refused++;
                return new Answer(MS, new NotifierOutcome.Retryable(429, false, "HTTP 429", Duration.ofSeconds(1),
                        true, 1));
            }
            if (quota != Integer.MAX_VALUE) {
                lastSecond.addLast(now);
            }
            return new Answer(latency, new NotifierOutcome.Delivered(200, latency / MS));
        }
    }

    /** Works on {@code workers} calls at once, each for {@code service}; the rest wait their turn there. */
    private static final class QueueingProvider extends Provider {

        private final PriorityQueue<Long> freeAt = new PriorityQueue<>();
        private final long service;

        QueueingProvider(int workers, long service) {
            this.service = service;
            for (int i = 0; i < workers; i++) {
                freeAt.add(0L);
            }
        }

        @Override
        Answer call(long now) {
            calls++;
            long start = Math.max(now, freeAt.poll());
            freeAt.add(start + service);
            return new Answer(start + service - now, new NotifierOutcome.Delivered(200, (start + service - now) / MS));
        }
    }

    /** The instance's event loop: timers and answers run in the order they come due, each as late as the lag says. */
    private static final class Simulation {

        private record Event(long at, long order, Runnable action) {
        }

        final PriorityQueue<Event> events = new PriorityQueue<>(
                (a, b) -> a.at != b.at ? Long.compare(a.at, b.at) : Long.compare(a.order, b.order));
        final NotifierThrottle throttle;
        final Provider provider;
        private final List<Long> sentAt = new ArrayList<>();
        private final List<long[]> limits = new ArrayList<>();
        private long now;
        private long order;
        private long nextLimitSample;
        LongUnaryOperator lag = due -> 0;

        Simulation(Optional<Double> rateLimit, Provider provider) {
            this.provider = provider;
            SendRate.Timer timer = (delayNanos, action) -> at(now + delayNanos, action);
            this.throttle = new NotifierThrottle(256, rateLimit, () -> now, timer);
        }

        /** A timer or an answer due at {@code due}, run when the instance gets to it. */
        private void at(long due, Runnable action) {
            events.add(new Event(Math.max(now, due + lag.applyAsLong(due)), order++, action));
        }

        /** {@code reminders} claimed at {@code perSecond}, each delivered through the throttle until sent. */
        void claim(int reminders, int perSecond) {
            for (int i = 0; i < reminders; i++) {
                at(now + i * SECOND / perSecond, this::deliver);
            }
        }

        private void deliver() {
            throttle.send("campaign", () -> Uni.createFrom().<NotifierOutcome>emitter(this::call))
                    .subscribe().with(this::settle);
        }

        private void settle(NotifierOutcome outcome) {
            if (outcome instanceof NotifierOutcome.Delivered) {
                sentAt.add(now);
            } else {
                // the 429's Retry-After, waited in memory as Settlement does
                at(now + SECOND, this::deliver);
            }
        }

        private void call(UniEmitter<? super NotifierOutcome> emitter) {
            Answer answer = provider.call(now);
            at(now + answer.afterNanos(), () -> emitter.complete(answer.outcome()));
        }

        void runUntilSent(int reminders, long deadline) {
            runUntil(() -> sentAt.size() >= reminders, deadline);
            assertThat(sentAt).hasSize(reminders);
        }

        void runUntil(BooleanSupplier done, long deadline) {
            while (!done.getAsBoolean() && !events.isEmpty() && events.peek().at() <= deadline) {
                Event next = events.poll();
                now = next.at();
                next.action().run();
                while (nextLimitSample <= now) {
                    limits.add(new long[] { nextLimitSample, throttle.concurrencyLimit() });
                    nextLimitSample += 10 * MS;
                }
            }
        }

        double drainSeconds() {
            return sentAt.get(sentAt.size() - 1) / 1e9;
        }

        long sentBetween(long from, long to) {
            return sentAt.stream().filter(at -> at >= from && at < to).count();
        }

        long highestLimitAfter(long from, long to) {
            return limitsBetween(from, to).max().orElseThrow();
        }

        long lowestLimitAfter(long from, long to) {
            return limitsBetween(from, to).min().orElseThrow();
        }

        /** The concurrency limit every 10 ms from {@code from} to {@code to}. */
        private LongStream limitsBetween(long from, long to) {
            return limits.stream().filter(sample -> sample[0] >= from && sample[0] < to).mapToLong(sample -> sample[1]);
        }

        double refusedShare() {
            return (double) provider.refused / provider.calls;
        }
    }
}
