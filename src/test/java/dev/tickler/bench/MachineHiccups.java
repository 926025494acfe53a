package dev.tickler.bench;

import java.util.Arrays;

/**
 * How late a thread that only sleeps 1 ms wakes up on this machine, sampled alongside a benchmark phase (as jHiccup
 * does): a latency the receiver cannot beat, because every process on the machine waits as long for a CPU. Its p99
 * next to the receiver's tells a slow application from a busy or stalling machine.
 */
final class MachineHiccups implements AutoCloseable {

    private final long[] overshootNanos = new long[1_000_000];
    private final Thread sampler;
    private volatile int count;
    private volatile boolean running = true;

    MachineHiccups() {
        sampler = new Thread(this::sample, "machine-hiccups");
        sampler.setDaemon(true);
        sampler.start();
    }

    /** Starts a new phase; what was sampled before is forgotten. */
    void restart() {
        count = 0;
    }

    /** The overshoot beyond 1 ms at p99 and at most, since {@link #restart()}. */
    String describe() {
        long[] sorted = Arrays.copyOf(overshootNanos, Math.min(count, overshootNanos.length));
        Arrays.sort(sorted);
        if (sorted.length == 0) {
            return "machine: no samples";
        }
        return String.format("machine: 1 ms sleep overshoots p99 %6.2f ms  max %7.2f ms",
                sorted[(int) Math.ceil(0.99 * sorted.length) - 1] / 1e6, sorted[sorted.length - 1] / 1e6);
    }

    private void sample() {
        while (running) {
            long before = System.nanoTime();
            try {
                Thread.sleep(1);
            } catch (InterruptedException e) {
                return;
            }
            int index = count;
            if (index < overshootNanos.length) {
                overshootNanos[index] = Math.max(0, System.nanoTime() - before - 1_000_000);
                count = index + 1;
            }
        }
    }

    @Override
    public void close() {
        running = false;
        sampler.interrupt();
    }
}
