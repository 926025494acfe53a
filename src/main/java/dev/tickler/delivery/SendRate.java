package dev.tickler.delivery;

import java.time.Duration;
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
 * pace is learned from the provider's 429s: a 429 cuts the pace to {@value #BACK_OFF} of what the provider took in the
 * last second, and while sends queue behind the pace it grows again by {@value #GROWTH_PER_SECOND} of itself a second,
 * but only by {@value #PROBING_GROWTH_PER_SECOND} from {@value #PLATEAU} of the rate the provider refused at to
 * {@value #PLATEAU_END} of it: the provider said where its quota is, so the pace gets back near it quickly and then
 * feels for it slowly, and a quota that was raised is found again past that band. That rate is the most the provider
 * took at a cut in the last {@value #QUOTA_MEMORY_SECONDS} s: a 429 while it took less (sends bunched up by a stall
 * here) lowers the pace but not where it is felt for slowly. Until the first 429, and with no ceiling, sends are not
 * paced at all. A 429 while fewer than {@value #LEARNING_FLOOR} sends a second were taken teaches nothing: at that rate
 * it is about one recipient, and that send's own retry answers it.
 *
 * <p>What the provider took is counted as it counts it: the sends that left in the last second, less those it
 * refused. Counting the 2xx answers instead would miss the calls still out, a whole latency's worth, and a first 429
 * would cut a fast provider's pace by a third. The 429s that follow a cut within the provider's {@code Retry-After}
 * (one second when it gives none, at most {@value #LONGEST_COOL_DOWN_SECONDS}) answer sends that left before it, so
 * the pace is cut at most once in that time.
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
    static final double PROBING_GROWTH_PER_SECOND = 0.01;
    static final double PLATEAU = 0.99;
    static final double PLATEAU_END = 1.05;
    static final long QUOTA_MEMORY_SECONDS = 30;
    static final int LEARNING_FLOOR = 20;
    static final long BURST_TOLERANCE_NANOS = 50_000_000;
    static final long LONGEST_COOL_DOWN_SECONDS = 5;

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
    private long coolDown = SECOND;
    /** The most the provider took in the second before a 429 lately, and when; infinite before the first. */
    private double refusedAt = Double.POSITIVE_INFINITY;
    private long refusedAtSince;
    private long lastGrowth;
    /** Sends the provider took, by the tenth of a second they left in: the current tenth and the ten before it. */
    private final long[] takenByTenth = new long[11];
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

    /** A send left for the provider now; it counts as taken unless the provider refuses it. */
    synchronized void departed() {
        forgetBefore(nanoTime.getAsLong());
        takenByTenth[Math.floorMod(newestTenth, takenByTenth.length)]++;
    }

    /**
     * The provider said 429 to the send that left at {@code departedAt}, and asked for {@code retryAfter} (null when
     * it did not say).
     */
    synchronized void rateLimited(long departedAt, Duration retryAfter) {
        long now = nanoTime.getAsLong();
        forgetBefore(now);
        long tenth = Math.floorDiv(departedAt, TENTH);
        if (tenth > newestTenth - takenByTenth.length && tenth <= newestTenth) {
            takenByTenth[Math.floorMod(tenth, takenByTenth.length)]--;
        }
        double taken = takenInLastSecond(now);
        if (now - lastCut < coolDown || taken < LEARNING_FLOOR) {
            return;
        }
        lastCut = now;
        lastGrowth = now;
        coolDown = coolDownFor(retryAfter);
        if (taken >= refusedAt || refusedAt == Double.POSITIVE_INFINITY
                || now - refusedAtSince > QUOTA_MEMORY_SECONDS * SECOND) {
            refusedAt = taken;
            refusedAtSince = now;
        }
        perSecond = BACK_OFF * Math.min(perSecond, taken);
    }

    /** The provider's own word for how long its refusals last, within one second and a few. */
    private static long coolDownFor(Duration retryAfter) {
        if (retryAfter == null || retryAfter.compareTo(Duration.ofSeconds(1)) <= 0) {
            return SECOND;
        }
        return retryAfter.compareTo(Duration.ofSeconds(LONGEST_COOL_DOWN_SECONDS)) >= 0
                ? LONGEST_COOL_DOWN_SECONDS * SECOND : retryAfter.toNanos();
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

    /** While sends queue behind the pace, it grows, slowly near where the provider refused; idle time earns nothing. */
    private void grow() {
        long now = nanoTime.getAsLong();
        if (!waiting.isEmpty()) {
            boolean nearTheQuota = perSecond >= PLATEAU * refusedAt && perSecond < PLATEAU_END * refusedAt;
            double growth = nearTheQuota ? PROBING_GROWTH_PER_SECOND : GROWTH_PER_SECOND;
            perSecond = Math.min(ceiling, perSecond * (1 + growth * (now - lastGrowth) / SECOND));
        }
        lastGrowth = now;
    }

    /** The current tenth and the ten before it, the oldest counted only for the part of it still within a second. */
    private double takenInLastSecond(long now) {
        forgetBefore(now);
        double taken = 0;
        for (long count : takenByTenth) {
            taken += count;
        }
        double currentTenthElapsed = (double) Math.floorMod(now, TENTH) / TENTH;
        long oldest = takenByTenth[Math.floorMod(newestTenth + 1, takenByTenth.length)];
        return taken - oldest * currentTenthElapsed;
    }

    private void forgetBefore(long now) {
        long tenth = Math.floorDiv(now, TENTH);
        for (long t = Math.max(newestTenth + 1, tenth - takenByTenth.length + 1); t <= tenth; t++) {
            takenByTenth[Math.floorMod(t, takenByTenth.length)] = 0;
        }
        newestTenth = Math.max(newestTenth, tenth);
    }
}
