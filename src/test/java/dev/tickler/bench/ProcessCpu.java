package dev.tickler.bench;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Predicate;

/**
 * CPU time used by the processes of a benchmark, between two readings: the packaged application, PostgreSQL (every
 * process of a {@code postgres} binary: its server detaches from this JVM, so run the benchmark where no other
 * PostgreSQL is busy) and this JVM itself (load generator, notifier and queue emulator). On a machine whose cores the benchmark saturates, CPU per operation explains a throughput figure, and
 * it is far less noisy than the throughput itself.
 */
final class ProcessCpu {

    private static final Map<String, Predicate<ProcessHandle>> PARTS = new LinkedHashMap<>();

    static {
        PARTS.put("app", process -> arguments(process).contains("quarkus-run.jar") || command(process).endsWith("-runner"));
        PARTS.put("postgres", process -> command(process).endsWith("/bin/postgres"));
    }

    private final Map<String, Long> startNanos;

    private ProcessCpu(Map<String, Long> startNanos) {
        this.startNanos = startNanos;
    }

    static ProcessCpu reading() {
        Map<String, Long> nanos = new LinkedHashMap<>();
        PARTS.forEach((part, matches) -> nanos.put(part, ProcessHandle.allProcesses().filter(matches)
                .mapToLong(ProcessCpu::cpuNanos).sum()));
        nanos.put("benchmark JVM", cpuNanos(ProcessHandle.current()));
        return new ProcessCpu(nanos);
    }

    /** Microseconds of CPU per operation for each part since this reading, e.g. "app 120, postgres 95, ...". */
    String perOperationSince(long operations) {
        Map<String, Long> now = reading().startNanos;
        StringBuilder line = new StringBuilder("CPU per push, µs:");
        now.forEach((part, nanos) -> line.append(' ').append(part).append(' ')
                .append(operations == 0 ? "-" : String.valueOf((nanos - startNanos.get(part)) / 1_000 / operations))
                .append(','));
        line.setLength(line.length() - 1);
        return line.toString();
    }

    private static long cpuNanos(ProcessHandle process) {
        return process.info().totalCpuDuration().map(Duration::toNanos).orElse(0L);
    }

    private static String command(ProcessHandle process) {
        return process.info().command().orElse("");
    }

    private static String arguments(ProcessHandle process) {
        return String.join(" ", process.info().arguments().orElse(new String[0]));
    }
}
