package dev.tickler.bench;

import java.time.Duration;

/**
 * CPU time used by the processes of a benchmark, between two readings: the packaged application, PostgreSQL (every
 * process of a {@code postgres} binary: its server detaches from this JVM, so run the benchmark where no other
 * PostgreSQL is busy) and this JVM itself (load generator, notifier and queue emulator). On a machine whose cores the
 * benchmark saturates, CPU per operation explains a throughput figure, and it is far less noisy than the throughput
 * itself.
 */
record ProcessCpu(long appNanos, long postgresNanos, long benchmarkNanos) {

    static ProcessCpu reading() {
        long app = 0;
        long postgres = 0;
        for (ProcessHandle process : (Iterable<ProcessHandle>) ProcessHandle.allProcesses()::iterator) {
            String command = process.info().command().orElse("");
            if (command.endsWith("/bin/postgres")) {
                postgres += cpuNanos(process);
            } else if (command.endsWith("-runner") || String.join(" ", process.info().arguments()
                    .orElse(new String[0])).contains("quarkus-run.jar")) {
                app += cpuNanos(process);
            }
        }
        return new ProcessCpu(app, postgres, cpuNanos(ProcessHandle.current()));
    }

    /** Microseconds of CPU per operation for each part since this reading, e.g. "app 120, postgres 95, ...". */
    String perOperationSince(long operations) {
        ProcessCpu now = reading();
        return "CPU per push, µs: app " + perOperation(now.appNanos - appNanos, operations)
                + ", postgres " + perOperation(now.postgresNanos - postgresNanos, operations)
                + ", benchmark JVM " + perOperation(now.benchmarkNanos - benchmarkNanos, operations);
    }

    private static String perOperation(long nanos, long operations) {
        return operations == 0 ? "-" : String.valueOf(nanos / 1_000 / operations);
    }

    private static long cpuNanos(ProcessHandle process) {
        return process.info().totalCpuDuration().map(Duration::toNanos).orElse(0L);
    }
}
