package dev.tickler.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.http.HttpClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntFunction;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusIntegrationTest;
import io.quarkus.test.junit.TestProfile;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.pgclient.PgBuilder;

import dev.tickler.testing.InfraiEmulatorResource;
import dev.tickler.testing.PostgresResource;

/**
 * The typical large job (docs/delivery.md, "Campaign scale"): 50,000 reminders ({@code -Dcampaign.reminders})
 * registered through the batch API, all due in the same second, pushed back by the queue emulator and delivered to a
 * provider that answers in 100 ms and refuses (429) beyond 1,000 sends a second. The packaged application runs in a
 * JVM of its own with the image's flags and tickler.notify.rate-limit set to the provider's published quota
 * ({@code -Dcampaign.rate-limit=none}: not set, the pace is learned). {@code -Dcampaign.quota=none
 * -Dcampaign.latency-millis=500} makes the provider one without a quota that takes 500 ms a call, which only the
 * concurrency ceiling bounds. {@code -Dcampaign.warm-up-sends=10000} runs the delivery path first, so that the JVM's
 * compiler has done its work before the campaign (as in an instance that has been serving) instead of during it.
 * Prints, for every second of the drain, what the provider took and refused beside the application's gauges (how
 * late its own timers ran among them); then the registration rate, the drain time from the due second to the last
 * send, the dispatch lag, the 429s, duplicates and lost reminders; run with
 * {@code mvn -Pbenchmark verify -Dit.test=CampaignBenchmarkIT -Dtest=none -Dsurefire.failIfNoSpecifiedTests=false}.
 */
@QuarkusIntegrationTest
@Tag("benchmark")
@TestProfile(CampaignBenchmarkIT.Campaign.class)
class CampaignBenchmarkIT {

    /** Production settings plus the provider's quota; the push channel's queue pushes to the application. */
    public static class Campaign extends ProductionLikeProfile {
        @Override
        public List<TestResourceEntry> testResources() {
            return List.of(new TestResourceEntry(PostgresResource.class),
                    queue(), new TestResourceEntry(QuotaNotifier.class,
                            Map.of("quota-per-second", QUOTA, "latency-millis", Long.toString(LATENCY_MILLIS))));
        }

        @Override
        public Map<String, String> getConfigOverrides() {
            Map<String, String> config = new HashMap<>(super.getConfigOverrides());
            config.put("tickler.push.signing-secret", InfraiEmulatorResource.SIGNING_SECRET);
            config.put("tickler.infrai.queues.push", InfraiEmulatorResource.PUSHED_QUEUE);
            // the provider's published quota, with a margin for the jitter of loopback calls; "none" leaves the
            // pace to be learned from the 429s alone
            String rateLimit = System.getProperty("campaign.rate-limit", "990");
            if (!rateLimit.equals("none")) {
                config.put("tickler.notify.rate-limit", rateLimit);
            }
            return config;
        }
    }

    /** -Dcampaign.quota: the provider's calls a second, or "none"; -Dcampaign.latency-millis: its time per call. */
    private static final String QUOTA = System.getProperty("campaign.quota",
            Integer.toString(QuotaNotifier.QUOTA_PER_SECOND));
    private static final long LATENCY_MILLIS = Long.getLong("campaign.latency-millis", QuotaNotifier.LATENCY_MILLIS);
    /** tickler.notify.concurrency's default: without a quota, the calls in flight are what bounds the pace. */
    private static final int CONCURRENCY_CEILING = 256;
    /** -Dcampaign.reminders: the campaign's size; 10,000 is a drain whose first seconds weigh more. */
    private static final int REMINDERS = Integer.getInteger("campaign.reminders", 50_000);
    private static final int BATCH = 1_000;
    private static final int CLIENTS = 4;
    /** -Dcampaign.measure-held-memory: measure the heap cost of a held reminder 15 s after the reminders fell due. */
    private static final boolean MEASURE_HELD_MEMORY = Boolean.getBoolean("campaign.measure-held-memory");
    /**
     * -Dcampaign.warm-up-sends: reminders sent through the whole path (push, claim, send, settlement) before the
     * campaign, 500 a second, with the provider's quota suspended so that no 429 teaches the pace; 0, the default,
     * leaves that path to the JVM's compiler during the campaign's first seconds.
     */
    private static final int WARM_UP_SENDS = Integer.getInteger("campaign.warm-up-sends", 0);
    private static final int WARM_UP_SENDS_PER_SECOND = 500;
    /** The least drain time: every send at the quota, none refused, or, faster, every slot of the ceiling busy. */
    private static final Duration PROVIDER_MINIMUM = Duration.ofMillis(Math.max(QUOTA.equals("none") ? 0
            : REMINDERS * 1_000L / Integer.parseInt(QUOTA), REMINDERS * LATENCY_MILLIS / CONCURRENCY_CEILING));
    private static final String[] GAUGES = { "tickler_notify_concurrency_limit", "tickler_notify_in_flight",
            "tickler_notify_pace", "tickler_delivery_held", "tickler_notify_local_delay_seconds" };

    @Test
    void aCampaignDueInOneSecondIsDeliveredAtTheProvidersPace() throws Exception {
        Vertx vertx = Vertx.vertx();
        Pool pool = Pool.newInstance(PgBuilder.pool().connectingTo(PostgresResource.reactiveUrl()).using(vertx).build());
        try {
            warmUp();
            warmUpDelivery();
            Instant due = Instant.now().plusSeconds(45).truncatedTo(ChronoUnit.SECONDS);
            long registrationStarted = System.nanoTime();
            int created = register(due);
            double registrationSeconds = (System.nanoTime() - registrationStarted) / 1e9;
            System.out.printf("campaign: %d registered through the batch API in %.1f s: %.0f/s (published at once:"
                    + " due in %d s)%n", created, registrationSeconds, created / registrationSeconds,
                    Duration.between(Instant.now(), due).toSeconds());
            assertThat(created).isEqualTo(REMINDERS);
            if (Instant.now().isAfter(due)) {
                System.out.println("campaign: the registration ran past the due second (a busy machine): the drain"
                        + " below is not comparable with other runs");
            }

            HeldMemory heldMemory = MEASURE_HELD_MEMORY ? HeldMemory.before() : null;
            Instant deadline = due.plus(PROVIDER_MINIMUM.multipliedBy(4));
            System.out.printf("campaign: provider %s calls/s, %d ms a call: at least %.1f s; load average at due %s%n",
                    QUOTA, LATENCY_MILLIS, PROVIDER_MINIMUM.toMillis() / 1e3, loadAverage());
            // the application's gauges once a second, beside what the provider counted in that second
            List<double[]> gaugesBySecond = new ArrayList<>();
            Instant nextSample = due.plusSeconds(1);
            while (Instant.now().isBefore(deadline) && QuotaNotifier.accepted() < REMINDERS) {
                Thread.sleep(Math.max(1, Duration.between(Instant.now(), nextSample).toMillis()));
                // a second this driver missed (the registration ran past the due second, or the machine stalled)
                // stays empty rather than being read late under another second's name
                while (Instant.now().isAfter(nextSample.plusMillis(500))) {
                    gaugesBySecond.add(null);
                    nextSample = nextSample.plusSeconds(1);
                }
                nextSample = nextSample.plusSeconds(1);
                gaugesBySecond.add(gauges());
                if (gaugesBySecond.size() % 5 == 0) {
                    System.out.printf("  %3d s after due: %d sent, %d calls%n", gaugesBySecond.size(),
                            QuotaNotifier.accepted(), QuotaNotifier.calls.get());
                }
                if (heldMemory != null && Instant.now().isAfter(due.plusSeconds(15))) {
                    heldMemory.report(gauge("tickler_delivery_held"));
                    heldMemory = null;
                }
            }
            long sent;
            while ((sent = count(pool, "state = 'sent'")) < REMINDERS && Instant.now().isBefore(deadline)) {
                Thread.sleep(100);
            }
            printDrainProfile(due, gaugesBySecond);
            Row lag = pool.query("SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM sent_at - fire_at)),"
                            + " percentile_cont(0.99) WITHIN GROUP (ORDER BY extract(epoch FROM sent_at - fire_at)),"
                            + " max(extract(epoch FROM sent_at - fire_at)) FROM reminders"
                            + " WHERE template = 'campaign' AND state = 'sent'")
                    .execute().await().indefinitely().iterator().next();
            double drainSeconds = lag.getDouble(2);
            long calls = QuotaNotifier.calls.get();
            long rateLimited = QuotaNotifier.rateLimited.get();
            double minimumSeconds = PROVIDER_MINIMUM.toMillis() / 1e3;
            System.out.printf("campaign: drained in %.1f s (minimum %.1f s, ratio %.2f); dispatch lag p50 %.1f s, p99"
                    + " %.1f s, max %.1f s%n", drainSeconds, minimumSeconds, drainSeconds / minimumSeconds,
                    lag.getDouble(0), lag.getDouble(1), drainSeconds);
            System.out.printf("campaign: %d notifier calls, %d answered 429 (%.2f %%), %d duplicate sends, %d lost;"
                    + " load average at the end %s%n", calls, rateLimited, 100.0 * rateLimited / Math.max(1, calls),
                    QuotaNotifier.duplicates.get(), REMINDERS - sent, loadAverage());
            assertThat(sent).isEqualTo(REMINDERS);
            assertThat(QuotaNotifier.duplicates.get()).isZero();
        } finally {
            vertx.close().toCompletionStage().toCompletableFuture().join();
        }
    }

    /** A few small batches, so that the measured registration is not the JIT's first sight of the path. */
    private void warmUp() throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        for (int i = 0; i < 20; i++) {
            Instant later = Instant.now().plus(Duration.ofDays(30));
            BatchRegistration.post(http, batch("warm-up-" + i, 200, item -> later, "email", "warm_up"));
        }
    }

    /** The delivery path run first, with no 429s; the provider's counts start again from zero after it. */
    private void warmUpDelivery() throws Exception {
        if (WARM_UP_SENDS == 0) {
            return;
        }
        QuotaNotifier.quotaSuspended = true;
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        Instant start = Instant.now().plusSeconds(5);
        long started = System.nanoTime();
        for (int sent = 0; sent < WARM_UP_SENDS; sent += BATCH) {
            int first = sent;
            BatchRegistration.post(http, batch("warm-up-send-" + sent, Math.min(BATCH, WARM_UP_SENDS - sent),
                    item -> start.plusMillis((first + item) * 1_000L / WARM_UP_SENDS_PER_SECOND), "push", "warm_up"));
        }
        // the sends' own span three times over, and the 5 s before the first
        Duration patience = Duration.ofSeconds(35 + 3L * WARM_UP_SENDS / WARM_UP_SENDS_PER_SECOND);
        await().atMost(patience).pollInterval(Duration.ofMillis(200))
                .until(() -> QuotaNotifier.accepted() >= WARM_UP_SENDS);
        System.out.printf("campaign: warm-up, %d reminders sent through the whole path in %.1f s, %d answered 429%n",
                QuotaNotifier.accepted(), (System.nanoTime() - started) / 1e9, QuotaNotifier.rateLimited.get());
        assertThat(QuotaNotifier.accepted()).isEqualTo(WARM_UP_SENDS);
        assertThat(QuotaNotifier.rateLimited.get()).isZero();
        QuotaNotifier.quotaSuspended = false;
        QuotaNotifier.forget();
    }

    private int register(Instant due) throws Exception {
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        ExecutorService clients = Executors.newFixedThreadPool(CLIENTS);
        try {
            List<Future<Integer>> answers = new ArrayList<>();
            for (int b = 0; b < REMINDERS / BATCH; b++) {
                String body = batch("campaign-" + b, BATCH, item -> due, "push", "campaign");
                answers.add(clients.submit(() -> BatchRegistration.post(http, body)));
            }
            int created = 0;
            for (Future<Integer> answer : answers) {
                created += answer.get();
            }
            return created;
        } finally {
            clients.shutdownNow();
        }
    }

    /** A batch registration's body: {@code size} users of the prefix, each item's fire_at by its place. */
    private static String batch(String prefix, int size, IntFunction<Instant> fireAt, String channel, String template) {
        JsonArray items = new JsonArray();
        for (int i = 0; i < size; i++) {
            items.add(new JsonObject().put("user_id", prefix + "-" + i).put("channel", channel)
                    .put("template", template).put("fire_at", fireAt.apply(i).toString())
                    .put("data", new JsonObject().put("plan", "pro")));
        }
        return new JsonObject().put("items", items).encode();
    }

    /**
     * What one claimed, unsent reminder costs the application's heap: live bytes after a full collection (the
     * class histogram forces one) with the campaign's pushes held, less the same before they arrived. It pauses the
     * application for the collection, so it is measured only when asked for.
     */
    private record HeldMemory(long liveBytesBefore) {

        static HeldMemory before() throws Exception {
            return new HeldMemory(liveHeapBytes());
        }

        void report(double held) throws Exception {
            long live = liveHeapBytes();
            System.out.printf("  heap: %.0f MiB live before the pushes, %.0f MiB with %.0f held: %.1f KiB per held"
                    + " reminder%n", liveBytesBefore / 1048576.0, live / 1048576.0, held,
                    (live - liveBytesBefore) / 1024.0 / held);
        }

        private static long liveHeapBytes() throws Exception {
            long pid = ProcessHandle.current().descendants()
                    .filter(process -> process.info().commandLine().orElse("").contains("quarkus-run.jar"))
                    .findFirst().orElseThrow().pid();
            Process histogram = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(),
                    Long.toString(pid), "GC.class_histogram").redirectErrorStream(true).start();
            String output = new String(histogram.getInputStream().readAllBytes());
            histogram.waitFor();
            String total = output.lines().filter(line -> line.startsWith("Total")).findFirst().orElseThrow();
            return Long.parseLong(total.trim().split("\\s+")[2]);
        }
    }

    private static double gauge(String name) {
        String page = io.restassured.RestAssured.given().port(InfraiEmulatorResource.managementPort())
                .get("/q/metrics").asString();
        return page.lines().filter(line -> line.startsWith(name + " ")).mapToDouble(
                line -> Double.parseDouble(line.substring(name.length() + 1).trim())).findFirst().orElseThrow();
    }

    /**
     * The application's own view: the notifier's limit, calls in flight, the pace, held deliveries and how late its
     * timers ran in the last second (NaN in a build without that gauge).
     */
    private static double[] gauges() {
        String page = io.restassured.RestAssured.given().port(InfraiEmulatorResource.managementPort())
                .get("/q/metrics").asString();
        double[] values = new double[GAUGES.length];
        for (int i = 0; i < GAUGES.length; i++) {
            String name = GAUGES[i];
            // Prometheus writes an infinite value (the pace while there is none) as +Inf
            values[i] = page.lines().filter(line -> line.startsWith(name + " ")).mapToDouble(
                    line -> Double.parseDouble(line.substring(name.length() + 1).trim().replace("Inf", "Infinity")))
                    .findFirst().orElse(Double.NaN);
        }
        return values;
    }

    /**
     * Every second from the due one to the last send: what the provider took and refused in it (its own count, by the
     * wall clock) and the application's gauges at its end; then the sends of each second on one line.
     */
    private static void printDrainProfile(Instant due, List<double[]> gaugesBySecond) {
        long first = due.getEpochSecond();
        long last = QuotaNotifier.takenBySecond.keySet().stream().mapToLong(Long::longValue).max().orElse(first);
        System.out.println("campaign: the drain, second by second (provider's count; gauges at the second's end)");
        System.out.println("    s   took   429  limit  in-flight    pace   held  late ms");
        StringBuilder took = new StringBuilder();
        for (long second = first; second <= last; second++) {
            long taken = countIn(QuotaNotifier.takenBySecond, second);
            int index = (int) (second - first);
            double[] gauges = index < gaugesBySecond.size() ? gaugesBySecond.get(index) : null;
            System.out.printf("  %3d %6d %5d %s%n", index, taken, countIn(QuotaNotifier.refusedBySecond, second),
                    gauges == null ? "" : String.format("%6.0f %10.0f %7.0f %6.0f %8.0f", gauges[0], gauges[1],
                            gauges[2], gauges[3], gauges[4] * 1e3));
            took.append(index == 0 ? "" : " ").append(taken);
        }
        System.out.println("campaign: sends per second from the due second: " + took);
    }

    private static long countIn(Map<Long, AtomicLong> bySecond, long second) {
        AtomicLong count = bySecond.get(second);
        return count == null ? 0 : count.get();
    }

    /** The machine's load averages (1, 5, 15 min): the two cores are shared, so a noisy run shows here. */
    private static String loadAverage() {
        try {
            String[] fields = Files.readString(Path.of("/proc/loadavg")).split(" ");
            return fields[0] + " " + fields[1] + " " + fields[2];
        } catch (IOException | RuntimeException unreadable) {
            return "unknown";
        }
    }

    private static long count(Pool pool, String condition) {
        return pool.query("SELECT count(*) FROM reminders WHERE template = 'campaign' AND " + condition).execute()
                .await().indefinitely().iterator().next().getLong(0);
    }
}
