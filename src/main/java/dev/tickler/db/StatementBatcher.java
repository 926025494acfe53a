package dev.tickler.db;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.function.LongSupplier;

import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.subscription.UniEmitter;
import io.vertx.core.Context;
import io.vertx.core.Vertx;

/**
 * Folds concurrent single-row writes into one round trip and one transaction. A write leaves at once while fewer
 * than {@code maxInFlight} batches are running; otherwise it waits and leaves with every write that arrived
 * meanwhile. An idle instance waits for nothing; a busy one pays Postgres one round trip and one commit per batch
 * instead of per row. The batch is handed over in lock order, so two batches that share rows cannot deadlock.
 *
 * <p>A write may also linger while no batch of its own is running: it leaves once it has waited {@code linger}, or its
 * batch is full, or it has the company recent lingering batches had, with every write that arrived meanwhile. At a
 * steady few hundred a second, batches that would hold one row then hold several (tens, for a settlement nobody waits
 * on, which lingers longest), and Postgres pays a statement's fixed cost once for them all (docs/scaling.md); a busy
 * instance, whose batches are always running, batches as it did without.
 *
 * <p>A write nobody waits on may linger while batches run too, until it has the company asked for ({@code
 * companyWhileRunning}) or its linger ends: a burst then shares a few statements instead of leaving one by one beside
 * the first, and a saturated instance, whose queue gathers that company in a few milliseconds, still keeps every batch
 * it may run busy.
 *
 * @param <W> one row's write
 * @param <R> that write's answer
 */
public final class StatementBatcher<W, R> {

    /**
     * The longest a write may linger: a settling write's claim is no longer renewed while it waits, and a
     * registration's client, or a claim's queue, is waiting.
     */
    public static final Duration LONGEST_LINGER = Duration.ofSeconds(1);

    /** How many lingering batches the company a write waits for is learnt from; every so many learns it again. */
    static final int LINGERED_BATCHES_REMEMBERED = 32;

    /** A lingering batch that learns its company takes a lull of this share of the linger as the end of a burst. */
    static final int LULL_PER_LINGER = 10;

    private static final long NOT_ARMED = Long.MAX_VALUE;

    private record Waiting<W, R>(W write, UniEmitter<? super R> answer, Context caller, long queuedAt) {
    }

    /** Runs {@code wake} once, {@code nanos} from now (a Vert.x timer in the application, a hand in the tests). */
    @FunctionalInterface
    public interface Timer {
        void after(long nanos, Runnable wake);
    }

    private final Function<List<W>, Uni<List<R>>> statement;
    private final Comparator<Waiting<W, R>> lockOrder;
    private final int maxBatch;
    private final int maxInFlight;
    private final long lingerNanos;
    private final int companyWhileRunning;
    private final LongSupplier nanoTime;
    private final Timer timer;
    private final Queue<Waiting<W, R>> queue = new ConcurrentLinkedQueue<>();
    private final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicInteger drains = new AtomicInteger();
    /** When the one wake-up armed will run (nanoTime), or {@link #NOT_ARMED}. */
    private final AtomicLong wakeArmedFor = new AtomicLong(NOT_ARMED);
    /** Sizes of the last lingering batches, read and written only by the one thread draining. */
    private final int[] lingeredSizes = new int[LINGERED_BATCHES_REMEMBERED];
    private long lingeredBatches;

    /**
     * @param statement runs one batch in one transaction and answers every write in the order given
     * @param lockOrder the order in which the statement is given the writes
     */
    public StatementBatcher(Function<List<W>, Uni<List<R>>> statement, Comparator<W> lockOrder, int maxBatch,
            int maxInFlight) {
        this(statement, lockOrder, maxBatch, maxInFlight, Duration.ZERO, System::nanoTime, (nanos, wake) -> {
            throw new IllegalStateException("a batcher without linger never waits");
        });
    }

    /**
     * The linger configured under {@code key}; refused, naming the key, unless from zero to {@link #LONGEST_LINGER}.
     */
    public static Duration configuredLinger(String key, Duration linger, String byDefault) {
        if (linger.isNegative() || linger.compareTo(LONGEST_LINGER) > 0) {
            throw new IllegalStateException(key + " is " + linger + "; it must be between zero (each write leaves at"
                    + " once) and " + LONGEST_LINGER + ", e.g. the default " + byDefault);
        }
        return linger;
    }

    /**
     * @param linger how long a write waits for others before it leaves, unless its batch fills first; zero: at once
     */
    public StatementBatcher(Function<List<W>, Uni<List<R>>> statement, Comparator<W> lockOrder, int maxBatch,
            int maxInFlight, Duration linger, LongSupplier nanoTime, Timer timer) {
        this(statement, lockOrder, maxBatch, maxInFlight, linger, 1, nanoTime, timer);
    }

    /**
     * @param companyWhileRunning how many writes a batch waits for while others run, unless its linger ends first; one:
     *            it leaves at once, as a write whose caller is waiting should
     */
    public StatementBatcher(Function<List<W>, Uni<List<R>>> statement, Comparator<W> lockOrder, int maxBatch,
            int maxInFlight, Duration linger, int companyWhileRunning, LongSupplier nanoTime, Timer timer) {
        this.statement = statement;
        this.lockOrder = Comparator.comparing(Waiting::write, lockOrder);
        this.maxBatch = maxBatch;
        this.maxInFlight = maxInFlight;
        this.lingerNanos = linger.toNanos();
        this.companyWhileRunning = Math.min(maxBatch, companyWhileRunning);
        this.nanoTime = nanoTime;
        this.timer = timer;
    }

    public Uni<R> submit(W write) {
        return Uni.createFrom().emitter(answer -> {
            queue.add(new Waiting<>(write, answer, Vertx.currentContext(), nanoTime.getAsLong()));
            drain();
        });
    }

    /**
     * Every write is queued before its submitter drains, and every statement that ends drains again, so a write
     * never waits behind a statement that has already ended. One thread drains at a time; a drain asked for while
     * one runs (from another thread, or from a statement that answered at once) makes that one go round again
     * instead of nesting, so the stack stays flat however many batches answer synchronously.
     */
    private void drain() {
        if (drains.getAndIncrement() != 0) {
            return;
        }
        do {
            startBatchesWhileRoom();
        } while (drains.decrementAndGet() != 0);
    }

    private void startBatchesWhileRoom() {
        while (!queue.isEmpty()) {
            if (!readyToLeave()) {
                wakeWhenReady();
                return;
            }
            int running = inFlight.get();
            if (running >= maxInFlight) {
                return;
            }
            if (inFlight.compareAndSet(running, running + 1)) {
                List<Waiting<W, R>> batch = takeBatch();
                if (batch.isEmpty()) {
                    inFlight.decrementAndGet();
                } else {
                    if (running == 0 && lingerNanos > 0) {
                        lingeredSizes[(int) (lingeredBatches++ % LINGERED_BATCHES_REMEMBERED)] = batch.size();
                    }
                    run(batch);
                }
            }
        }
    }

    /**
     * A batch leaves while another runs once it holds the company asked for then (at once, unless more is asked); a
     * lingering one when its oldest write lingered, or as soon as it holds the company expected. A batch that learns
     * its company ({@link #learning}) leaves early only once it holds the largest recent company and the writes have
     * stopped coming for a lull.
     */
    private boolean readyToLeave() {
        boolean running = inFlight.get() > 0;
        if (lingerNanos == 0 || running && companyWhileRunning <= 1) {
            return true;
        }
        Waiting<W, R> oldest = queue.peek();
        long now = nanoTime.getAsLong();
        if (oldest == null || now - oldest.queuedAt() >= lingerNanos) {
            return true;
        }
        if (running) {
            return queueHolds(companyWhileRunning);
        }
        if (!learning()) {
            return queueHolds(Math.min(maxBatch, largestRecentCompany()));
        }
        return queueHolds(maxBatch) || lullEndsAt() <= now;
    }

    /**
     * A full batch, or as many writes as the largest of the last lingering batches held. Callers that wait for their
     * answers before they write again (N clients in a closed loop, a queue with N pushes in flight) are back together
     * once that many have arrived, and would only wait out the linger for nobody; writes that arrive on their own
     * (a steady rate) rarely reach the largest of 32 batches, and linger as before.
     */
    private int largestRecentCompany() {
        return Arrays.stream(lingeredSizes).max().getAsInt();
    }

    /**
     * The first 32 lingering batches, and every 32nd after, learn what company lingering gathers, so that a quiet
     * spell's small batches do not keep the writes after it from lingering for good: they wait their linger out,
     * unless they hold the largest recent company and no write came for a lull (a tenth of the linger, or three times
     * the batch's mean gap between writes if longer), as when callers in a closed loop are all back and nobody else
     * is coming.
     */
    private boolean learning() {
        return lingeredBatches < LINGERED_BATCHES_REMEMBERED
                || lingeredBatches % LINGERED_BATCHES_REMEMBERED == LINGERED_BATCHES_REMEMBERED - 1;
    }

    /** When a learning batch's lull would end, if no write came meanwhile; never, while it may not leave early. */
    private long lullEndsAt() {
        if (lingeredBatches < LINGERED_BATCHES_REMEMBERED) {
            return NOT_ARMED;
        }
        int company = largestRecentCompany();
        int counted = 0;
        long first = 0;
        long last = 0;
        for (Waiting<W, R> waiting : queue) {
            if (counted == 0) {
                first = waiting.queuedAt();
            }
            last = waiting.queuedAt();
            counted++;
        }
        if (counted == 0 || counted < company) {
            return NOT_ARMED;
        }
        long meanGap = counted == 1 ? 0 : (last - first) / (counted - 1);
        return last + Math.max(lingerNanos / LULL_PER_LINGER, 3 * meanGap);
    }

    /** Counts no further than needed: only a lingering batcher asks, and its queue is short. */
    private boolean queueHolds(int writes) {
        int counted = 0;
        for (Iterator<Waiting<W, R>> waiting = queue.iterator(); waiting.hasNext() && counted < writes; counted++) {
            waiting.next();
        }
        return counted >= writes;
    }

    /**
     * A wake-up when the oldest write's linger ends, or sooner when a learning batch's lull would end (one armed for
     * later does not keep an earlier one from being armed); it drains, which decides again. While batches run, only
     * the linger's end: a lull decides nothing then, and a batch that ends drains anyway.
     */
    private void wakeWhenReady() {
        Waiting<W, R> oldest = queue.peek();
        if (oldest == null) {
            return;
        }
        long at = oldest.queuedAt() + lingerNanos;
        if (inFlight.get() == 0 && learning()) {
            at = Math.min(at, lullEndsAt());
        }
        long armed = wakeArmedFor.get();
        if (at < armed && wakeArmedFor.compareAndSet(armed, at)) {
            long wakeAt = at;
            timer.after(Math.max(0, wakeAt - nanoTime.getAsLong()), () -> {
                wakeArmedFor.compareAndSet(wakeAt, NOT_ARMED);
                drain();
            });
        }
    }

    private List<Waiting<W, R>> takeBatch() {
        List<Waiting<W, R>> batch = new ArrayList<>();
        Waiting<W, R> next;
        while (batch.size() < maxBatch && (next = queue.poll()) != null) {
            batch.add(next);
        }
        batch.sort(lockOrder);
        return batch;
    }

    private void run(List<Waiting<W, R>> batch) {
        Uni<List<R>> answers;
        try {
            answers = statement.apply(batch.stream().map(Waiting::write).toList());
        } catch (RuntimeException e) {
            answers = Uni.createFrom().failure(e);
        }
        answers.subscribe().with(results -> {
            if (results.size() != batch.size()) {
                failAll(batch, new IllegalStateException("the statement answered " + results.size() + " of "
                        + batch.size() + " writes"));
                return;
            }
            ended();
            for (int i = 0; i < batch.size(); i++) {
                R result = results.get(i);
                Waiting<W, R> waiting = batch.get(i);
                CallerContext.of(waiting.caller()).execute(() -> waiting.answer().complete(result));
            }
        }, failure -> failAll(batch, failure));
    }

    private void failAll(List<Waiting<W, R>> batch, Throwable failure) {
        ended();
        for (Waiting<W, R> waiting : batch) {
            CallerContext.of(waiting.caller()).execute(() -> waiting.answer().fail(failure));
        }
    }

    private void ended() {
        inFlight.decrementAndGet();
        drain();
    }
}
