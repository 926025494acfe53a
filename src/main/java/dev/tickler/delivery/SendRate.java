package dev.tickler.delivery;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.function.LongSupplier;

import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.subscription.UniEmitter;

/**
 * How fast sends leave this instance. tickler.notify.rate-limit, when set, is a ceiling never passed; below it the
 * pace is learned from the provider's 429s: a 429 cuts the pace to {@value #BACK_OFF} of what the provider accepted
 * in the last second, at most once a second (quotas are counted per second, so a cut shows within one), and while
 * sends queue behind the pace it grows again by {@value #GROWTH_PER_SECOND} of itself a second. Until the first 429,
 * and with no ceiling, sends are not paced at all. A 429 while fewer than {@value #LEARNING_FLOOR} sends a second
 * were accepted teaches nothing: at that rate it is about one recipient, and that send's own retry answers it.
 *
 * <p>A pace, not the concurrency limit, is what answers a quota: a 429 comes back at once and frees its slot at
 * once, so however few slots there are, the next sends would run into the same quota as fast as it answers.
 *
 * <p>Sends leave one by one from a queue, each once its turn has come (the generic cell rate algorithm), with a
 * tolerance of {@link #BURST_TOLERANCE_NANOS} so that a timer firing late on a busy event loop lets the sends it held
 * back catch up. Whatever the timers do, no second ever holds more sends than the pace: a catch-up after a stall
 * does not run into the provider's quota.
 */
final class SendRate {

    static final double BACK_OFF = 0.95;
    static final double GROWTH_PER_SECOND = 0.05;
    static final int LEARNING_FLOOR = 20;
    static final long BURST_TOLERANCE_NANOS = 50_000_000;

    /** Runs an action after a delay; a Vert.x timer in the application. */
    @FunctionalInterface
    interface Timer {
        void after(long delayNanos, Runnable action);
    }

    private static final long SECOND = 1_000_000_000L;
    private static final long TENTH = SECOND / 10;

    private final double ceiling;
    private final LongSupplier nanoTime;
    private final Timer timer;
    private final Deque<UniEmitter<? super Void>> waiting = new ArrayDeque<>();
    /** When the paced sends of the last second left. */
    private final Deque<Long> sentLastSecond = new ArrayDeque<>();
    private double perSecond;
    private long nextTurn;
    private boolean timerSet;
    private long lastCut;
    private long lastGrowth;
    /** Accepted sends per tenth of a second: the current tenth and the ten before it. */
    private final long[] acceptedByTenth = new long[11];
    private long newestTenth;

    SendRate(Optional<Double> ceilingPerSecond, LongSupplier nanoTime, Timer timer) {
        this.ceiling = ceilingPerSecond.filter(rate -> rate > 0).orElse(Double.POSITIVE_INFINITY);
        this.nanoTime = nanoTime;
        this.timer = timer;
        this.perSecond = ceiling;
        long now = nanoTime.getAsLong();
        this.nextTurn = now;
        this.lastCut = now - SECOND;
        this.lastGrowth = now;
        this.newestTenth = Math.floorDiv(now, TENTH);
    }

    /** Completes when this send's turn has come: at once while unpaced or while the pace has room. */
    Uni<Void> turn() {
        return Uni.createFrom().emitter(emitter -> {
            synchronized (this) {
                grow();
                waiting.addLast(emitter);
            }
            release();
        });
    }

    /** The provider took a send. */
    synchronized void accepted() {
        forgetBefore(nanoTime.getAsLong());
        acceptedByTenth[Math.floorMod(newestTenth, acceptedByTenth.length)]++;
    }

    /** The provider said 429. */
    synchronized void rateLimited() {
        long now = nanoTime.getAsLong();
        double accepted = acceptedInLastSecond(now);
        if (now - lastCut < SECOND || accepted < LEARNING_FLOOR) {
            return;
        }
        lastCut = now;
        lastGrowth = now;
        perSecond = BACK_OFF * Math.min(perSecond, accepted);
    }

    synchronized double perSecond() {
        return perSecond;
    }

    /** Lets go the waiting sends whose turn has come, and sets a timer for the next one. */
    private void release() {
        List<UniEmitter<? super Void>> going = new ArrayList<>();
        synchronized (this) {
            grow();
            long now = nanoTime.getAsLong();
            while (!waiting.isEmpty() && mayGo(now)) {
                going.add(waiting.pollFirst());
            }
            if (!waiting.isEmpty() && !timerSet) {
                timerSet = true;
                timer.after(Math.max(0, nextChance(now) - now), this::onTimer);
            }
        }
        going.forEach(emitter -> emitter.complete(null));
    }

    private void onTimer() {
        synchronized (this) {
            timerSet = false;
        }
        release();
    }

    /** Takes the next turn if it has come and the last second has room for one more send. */
    private boolean mayGo(long now) {
        if (perSecond == Double.POSITIVE_INFINITY) {
            return true;
        }
        while (!sentLastSecond.isEmpty() && sentLastSecond.peekFirst() <= now - SECOND) {
            sentLastSecond.pollFirst();
        }
        if (now < nextTurn - BURST_TOLERANCE_NANOS || sentLastSecond.size() >= Math.max(1, (int) perSecond)) {
            return false;
        }
        nextTurn = Math.max(nextTurn, now) + (long) (SECOND / perSecond);
        sentLastSecond.addLast(now);
        return true;
    }

    /** When the next waiting send may go: its turn, or the moment the last second has room again. */
    private long nextChance(long now) {
        long turn = nextTurn - BURST_TOLERANCE_NANOS;
        boolean secondFull = sentLastSecond.size() >= Math.max(1, (int) perSecond);
        return secondFull ? Math.max(turn, sentLastSecond.peekFirst() + SECOND) : turn;
    }

    /** While sends queue behind the pace, it grows; idle time earns nothing. */
    private void grow() {
        long now = nanoTime.getAsLong();
        if (!waiting.isEmpty()) {
            perSecond = Math.min(ceiling, perSecond * (1 + GROWTH_PER_SECOND * (now - lastGrowth) / SECOND));
        }
        lastGrowth = now;
    }

    /** The ten tenths before the current one, the oldest counted only for the part of it still within a second. */
    private double acceptedInLastSecond(long now) {
        forgetBefore(now);
        double accepted = 0;
        for (long count : acceptedByTenth) {
            accepted += count;
        }
        double currentTenthElapsed = (double) Math.floorMod(now, TENTH) / TENTH;
        long oldest = acceptedByTenth[Math.floorMod(newestTenth + 1, acceptedByTenth.length)];
        return accepted - oldest * currentTenthElapsed;
    }

    private void forgetBefore(long now) {
        long tenth = Math.floorDiv(now, TENTH);
        for (long t = Math.max(newestTenth + 1, tenth - acceptedByTenth.length + 1); t <= tenth; t++) {
            acceptedByTenth[Math.floorMod(t, acceptedByTenth.length)] = 0;
        }
        newestTenth = Math.max(newestTenth, tenth);
    }
}
