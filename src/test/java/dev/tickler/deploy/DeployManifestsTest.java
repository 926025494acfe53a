package dev.tickler.deploy;

import static dev.tickler.deploy.PlatformContainer.cast;
import static dev.tickler.deploy.PlatformContainer.documents;
import static dev.tickler.deploy.PlatformContainer.map;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import dev.tickler.deploy.PlatformContainer.Platform;
import dev.tickler.deploy.PlatformContainer.Probe;

/**
 * Every manifest under deploy/ read as its platform reads it (knative/serving's source and Cloud Run's documentation
 * say how; docs/deploying.md cites them): probes go where the platform sends them, the shutdown budget ends before the
 * platform's kill, memory requests cover what was measured, no secret is written inline and no example can be
 * applied as one, scaling follows the work, the containers pass a restricted namespace, and the connections of every
 * instance that can run at once fit the database. {@link ManifestEnvironmentCheck} then runs what they describe.
 */
class DeployManifestsTest {

    private static final Path DEPLOY = PlatformContainer.DEPLOY;
    private static final Path OBSERVABILITY = DEPLOY.resolve("observability");
    /** Resident memory of the JVM image after 10,000 pushes, as docs/deploying.md's start-up table measured it. */
    private static final int MEASURED_JVM_RSS_MIB = 282;
    /** What the native executable needs beside its heap (image heap, threads, buffers), before it is measured. */
    private static final int NATIVE_OFF_HEAP_MIB = 96;
    /** Kept free between the application's own budget and the platform's kill. */
    private static final Duration STOP_MARGIN = Duration.ofSeconds(2);

    private final List<PlatformContainer> containers = PlatformContainer.all(key -> "generated");

    @Test
    void everyManifestParsesAndNamesItsKind() throws IOException {
        List<Map<String, Object>> documents = new ArrayList<>();
        try (Stream<Path> files = Files.walk(DEPLOY)) {
            for (Path file : files.filter(path -> path.toString().endsWith(".yaml") && !path.startsWith(OBSERVABILITY))
                    .sorted().toList()) {
                documents.addAll(documents(file));
            }
        }
        for (Map<String, Object> document : documents) {
            assertThat(document).containsKeys("apiVersion", "kind");
        }
        assertThat(documents).extracting(document -> document.get("kind"))
                .contains("Service", "ConfigMap", "Job", "Kustomization", "RunMonitoring").doesNotContain("Secret");
        assertThat(containers).hasSize(6);
    }

    @Test
    void probesGoWhereThePlatformSendsThem() throws IOException {
        int managementPort = Integer.parseInt(applicationProperties().getProperty("quarkus.management.port"));
        for (PlatformContainer container : containers) {
            if (container.isJob()) {
                continue;
            }
            assertThat(container.servingPort()).as(container.name()).isEqualTo(8080);
            assertThat(container.probes()).as(container.name()).extracting(Probe::kind).contains("livenessProbe");
            for (Probe probe : container.probes()) {
                String what = container.name() + " " + probe.kind();
                if (container.platform() == Platform.KNATIVE && probe.kind().equals("readinessProbe")) {
                    // the queue-proxy probes the port written here (knative/serving queue.go, since 1.3)
                    assertThat(probe.port()).as(what).isIn(container.servingPort(), managementPort);
                    assertThat(probe.path()).as(what).isEqualTo("/q/health/ready");
                } else {
                    // Knative rewrites a liveness probe to the serving port (deploy.go, rewriteUserLivenessProbe);
                    // Cloud Run probes the container port: only the public liveness path answers there
                    assertThat(probe.port()).as(what).isEqualTo(container.servingPort());
                    assertThat(probe.path()).as(what).isEqualTo("/q/health/live");
                }
            }
        }
    }

    @Test
    void theShutdownBudgetEndsBeforeThePlatformsKill() {
        for (PlatformContainer container : containers) {
            if (container.isJob()) {
                continue;
            }
            Duration grace = Duration.parse(container.environment().get("TICKLER_DELIVERY_SHUTDOWN_GRACE"));
            Duration release = Duration.parse(container.environment().get("TICKLER_DELIVERY_SHUTDOWN_RELEASE"));
            assertThat(grace.plus(release).plus(STOP_MARGIN))
                    .as(container.name() + ": grace + release + margin within the seconds after SIGTERM")
                    .isLessThanOrEqualTo(Duration.ofSeconds(container.secondsAfterSigterm()));
        }
    }

    @Test
    void memoryRequestsCoverWhatTheImagesNeed() throws IOException {
        int nativeHeap = nativeHeapMib();
        for (PlatformContainer container : containers) {
            if (container.platform() == Platform.CLOUD_RUN_JOB) {
                continue;
            }
            assertThat(container.memoryRequestMib()).as(container.name() + " request is the limit")
                    .isEqualTo(container.memoryLimitMib());
            if (!container.isJob()) {
                assertThat(container.memoryRequestMib()).as(container.name() + " request for the native heap")
                        .isGreaterThanOrEqualTo(nativeHeap + NATIVE_OFF_HEAP_MIB);
            }
        }
        String overlay = String.valueOf(documents(DEPLOY.resolve("knative/jvm/kustomization.yaml")).get(0).get("patches"));
        Matcher requests = Pattern.compile("requests:\\s+cpu: \\S+\\s+memory: (\\d+Mi)").matcher(overlay);
        int patched = 0;
        while (requests.find()) {
            patched++;
            assertThat(PlatformContainer.mebibytes(requests.group(1))).as("the JVM overlay's request")
                    .isGreaterThanOrEqualTo(MEASURED_JVM_RSS_MIB);
        }
        assertThat(patched).as("JVM overlay patches of both services").isEqualTo(2);
        assertThat(Files.readString(Path.of("docs", "deploying.md"))).contains("**" + MEASURED_JVM_RSS_MIB + " MiB**");
    }

    @Test
    void noSecretIsWrittenInlineAndNoExampleCanBeApplied() throws IOException {
        Pattern secretName = Pattern.compile(".*(KEY|SECRET|PASSWORD|TOKEN|USERNAME).*");
        for (PlatformContainer container : containers) {
            for (Object entry : container.container().get("env") == null ? List.of()
                    : (List<?>) container.container().get("env")) {
                Map<String, Object> variable = cast(entry);
                String name = String.valueOf(variable.get("name"));
                if (secretName.matcher(name).matches()) {
                    assertThat(variable).as(container.name() + " " + name).doesNotContainKey("value");
                    Map<String, Object> reference = map(map(variable, "valueFrom"), "secretKeyRef");
                    // a pinned version: "latest" would give two instances of one revision different secrets
                    assertThat(String.valueOf(reference.get("key"))).as(container.name() + " " + name + " version")
                            .matches("[1-9][0-9]*");
                }
            }
        }
        assertThat(PlatformContainer.configMap().keySet()).noneMatch(key -> secretName.matcher(key).matches()
                && !key.startsWith("QUARKUS_DATASOURCE_REACTIVE_"));
        Map<String, Object> kustomization = documents(DEPLOY.resolve("kubernetes/kustomization.yaml")).get(0);
        assertThat(String.valueOf(kustomization.get("secretGenerator"))).contains("envs=[secrets.env]");
        assertThat(DEPLOY.resolve("kubernetes/secrets.env")).doesNotExist();
        assertThat(Files.readString(DEPLOY.resolve("kubernetes/.gitignore"))).contains("secrets.env");
        assertThat(PlatformContainer.secretKeys()).contains("PUSH_PATH_TOKEN", "TICKLER_PUSH_SIGNING_SECRET",
                "TICKLER_API_OPERATOR_KEYS", "TICKLER_CONSOLE_SECRET");
    }

    @Test
    void scalingFollowsThePushesAndTheSweeperIsOne() {
        PlatformContainer knative = named("knative/service.yaml");
        assertThat(knative.templateAnnotations()).containsEntry("autoscaling.knative.dev/metric", "rps")
                .containsKeys("autoscaling.knative.dev/target", "autoscaling.knative.dev/max-scale",
                        "autoscaling.knative.dev/scale-down-delay");
        Duration scaleDownDelay = Duration.parse("PT" + String.valueOf(knative.templateAnnotations()
                .get("autoscaling.knative.dev/scale-down-delay")).toUpperCase());
        assertThat(scaleDownDelay).as("scale-down delay covers draining a full backlog")
                .isGreaterThanOrEqualTo(backlogDrain());
        PlatformContainer cloudRun = named("cloudrun/service.yaml");
        assertThat(cloudRun.templateAnnotations()).containsEntry("run.googleapis.com/cpu-throttling", "false")
                .containsKey("autoscaling.knative.dev/maxScale");
        for (PlatformContainer container : containers) {
            assertThat(container.environment()).as(container.name()).doesNotContainKey("TICKLER_NOTIFY_CONCURRENCY");
            boolean sweeper = container.name().endsWith("sweeper.yaml");
            if (!container.isJob()) {
                assertThat(container.environment()).as(container.name())
                        .containsEntry("TICKLER_SWEEP_ENABLED", String.valueOf(sweeper))
                        .containsEntry("TICKLER_METRICS_TABLE_STATISTICS", String.valueOf(sweeper));
            }
            if (sweeper) {
                assertThat(container.environment()).as(container.name()).containsEntry("TICKLER_RECONCILE_EVERY", "1m");
                assertThat(container.templateAnnotations().values()).as(container.name() + " one instance")
                        .filteredOn("1"::equals).hasSize(2);
            }
        }
    }

    @Test
    void containersPassARestrictedNamespace() {
        for (PlatformContainer container : containers) {
            if (container.platform() == Platform.CLOUD_RUN || container.platform() == Platform.CLOUD_RUN_JOB) {
                continue;
            }
            Map<String, Object> security = map(container.container(), "securityContext");
            assertThat(security).as(container.name()).containsEntry("allowPrivilegeEscalation", false)
                    .containsKey("capabilities");
            assertThat(String.valueOf(security.get("capabilities"))).as(container.name()).isEqualTo("{drop=[ALL]}");
            if (container.platform() == Platform.KNATIVE) {
                // Knative refuses a pod-level securityContext unless a feature flag allows it: all on the container
                assertThat(security).as(container.name()).containsEntry("runAsNonRoot", true)
                        .containsEntry("seccompProfile", Map.of("type", "RuntimeDefault"));
                assertThat(container.templateSpec()).as(container.name()).doesNotContainKey("securityContext");
            }
        }
    }

    @Test
    void theConnectionsOfEveryInstanceThatCanRunAtOnceFitTheDatabase() {
        Map<String, Object> annotations = map(map(documents(DEPLOY.resolve("kubernetes/configmap.yaml")).get(0),
                "metadata"), "annotations");
        int maxConnections = Integer.parseInt(String.valueOf(annotations.get("tickler.dev/postgres-max-connections")));
        for (Platform platform : List.of(Platform.KNATIVE, Platform.CLOUD_RUN)) {
            int budget = 2; // the migration job's JDBC connections
            for (PlatformContainer container : containers) {
                if (container.platform() != platform) {
                    continue;
                }
                int perInstance = Integer.parseInt(container.environment().get("QUARKUS_DATASOURCE_REACTIVE_MAX_SIZE"));
                Object maxScale = container.templateAnnotations().getOrDefault("autoscaling.knative.dev/max-scale",
                        container.templateAnnotations().get("autoscaling.knative.dev/maxScale"));
                // during a rollout the old revision still runs at its scale while the new one grows to take over
                budget += 2 * perInstance * Integer.parseInt(String.valueOf(maxScale));
            }
            assertThat(budget).as(platform + " connections at the worst moment of a rollout")
                    .isLessThanOrEqualTo(maxConnections);
        }
    }

    @Test
    void cloudRunReachesThePrivateDatabaseMigratesAndScrapesTheManagementPort() {
        for (PlatformContainer container : containers) {
            if (container.platform() == Platform.CLOUD_RUN || container.platform() == Platform.CLOUD_RUN_JOB) {
                Map<String, Object> annotations = container.platform() == Platform.CLOUD_RUN
                        ? container.templateAnnotations()
                        : cast(map(map(map(container.manifest(), "spec"), "template"), "metadata").get("annotations"));
                assertThat(annotations).as(container.name()).containsKey("run.googleapis.com/network-interfaces")
                        .containsEntry("run.googleapis.com/vpc-access-egress", "private-ranges-only");
            }
            if (container.platform() == Platform.CLOUD_RUN) {
                assertThat(String.valueOf(container.templateSpec().get("containers"))).as(container.name())
                        .contains("cloud-run-gmp-sidecar").contains("mountPath=/etc/rungmp");
                assertThat(String.valueOf(container.templateSpec().get("volumes"))).contains("tickler-run-monitoring");
            }
        }
        Map<String, Object> monitoring = documents(DEPLOY.resolve("cloudrun/run-monitoring.yaml")).get(0);
        assertThat(String.valueOf(map(monitoring, "spec").get("endpoints"))).contains("port=9000")
                .contains("path=/q/metrics");
        assertThat(map(named("cloudrun/sweeper.yaml").manifest(), "metadata").toString())
                .contains("run.googleapis.com/ingress=internal");
        assertThat(named("cloudrun/migrate-job.yaml").environment()).containsEntry("QUARKUS_INIT_AND_EXIT", "true")
                .containsKey("QUARKUS_DATASOURCE_JDBC_URL");
    }

    @Test
    void theMigrationJobCanBeCreatedForEveryRelease() {
        Map<String, Object> job = documents(DEPLOY.resolve("kubernetes/migration-job.yaml")).get(0);
        assertThat(map(job, "metadata")).containsKey("generateName").doesNotContainKey("name");
        assertThat(map(job, "spec")).containsKey("ttlSecondsAfterFinished");
        assertThat(named("kubernetes/migration-job.yaml").environment()).containsEntry("QUARKUS_INIT_AND_EXIT", "true");
    }

    @Test
    void theKustomizationsSetTheImageOnceAndTheJvmOverlayItsOwn() {
        Map<String, Object> base = documents(DEPLOY.resolve("knative/kustomization.yaml")).get(0);
        assertThat(base.get("resources")).isEqualTo(List.of("service.yaml", "sweeper.yaml"));
        assertThat(String.valueOf(base.get("images"))).contains("name=registry.example.com/tickler");
        Map<String, Object> overlay = documents(DEPLOY.resolve("knative/jvm/kustomization.yaml")).get(0);
        assertThat(overlay.get("resources")).isEqualTo(List.of("../"));
        assertThat(String.valueOf(overlay.get("images"))).contains("newTag=1.0.0-jvm");
        assertThat(String.valueOf(overlay.get("patches"))).contains("name=tickler}").contains("name=tickler-sweeper}");
    }

    @Test
    void theNativeImageIsBoundedAndBuiltFromPinnedParts() throws IOException {
        String dockerfile = Files.readString(Path.of("Dockerfile.native"));
        for (Matcher from = Pattern.compile("(?m)^FROM (\\S+)").matcher(dockerfile); from.find();) {
            String image = from.group(1).startsWith("${") ? argDefault(dockerfile, from.group(1)) : from.group(1);
            assertThat(image).as("a FROM pinned by digest, or by exact tag while docs/deploying.md lists it to pin")
                    .matches(".+@sha256:[0-9a-f]{64}|.+:[0-9][0-9.]*[0-9](-[0-9]+)?");
            if (!image.contains("@sha256:")) {
                assertThat(Files.readString(Path.of("docs", "deploying.md"))).contains("`" + image + "`");
            }
        }
        assertThat(dockerfile).contains("ubi9-quarkus-mandrel-builder-image:jdk-25@sha256:")
                .containsPattern("ARG MAVEN_VERSION=3\\.9\\.\\d+").containsPattern("ARG MAVEN_SHA512=[0-9a-f]{128}")
                .contains("\"-XX:+ExitOnOutOfMemoryError\"");
        assertThat(nativeHeapMib()).isPositive();
    }

    @Test
    void everyAlertLinksARunbookSectionOfTheOperatingGuide() throws IOException {
        Set<String> sections = new HashSet<>();
        for (String line : Files.readAllLines(Path.of("docs", "operating.md"))) {
            if (line.startsWith("#")) {
                sections.add(line.replaceFirst("^#+\\s*", "").toLowerCase().replaceAll("[^a-z0-9 -]", "")
                        .replace(' ', '-'));
            }
        }
        List<String> anchors = new ArrayList<>();
        Matcher url = Pattern.compile("runbook_url: https://tickler\\.example\\.com/docs/operating\\.md#(\\S+)")
                .matcher(Files.readString(OBSERVABILITY.resolve("alerts.yaml")));
        while (url.find()) {
            anchors.add(url.group(1));
        }
        long alerts = Pattern.compile("(?m)^\\s+- alert: ").matcher(Files.readString(OBSERVABILITY.resolve("alerts.yaml")))
                .results().count();
        assertThat(anchors).as("one runbook link per alert").hasSize((int) alerts);
        assertThat(sections).as("sections of docs/operating.md").containsAll(anchors);
    }

    @Test
    void theScrapeJobReadsTheManagementPortUnderTheJobsTheRulesExpect() throws IOException {
        Map<String, Object> prometheus = documents(OBSERVABILITY.resolve("prometheus.yml")).get(0);
        assertThat(prometheus.get("rule_files")).isEqualTo(List.of("alerts.yaml"));
        String job = String.valueOf(prometheus.get("scrape_configs"));
        assertThat(job).contains("metrics_path=/q/metrics").contains("regex=tickler|tickler-sweeper")
                .contains("replacement=$1:" + applicationProperties().getProperty("quarkus.management.port"))
                .contains("target_label=job").contains("target_label=namespace");
        String rules = Files.readString(OBSERVABILITY.resolve("alerts.yaml"));
        assertThat(rules).contains("job=\"tickler-sweeper\"");
        assertThat(map(named("knative/sweeper.yaml").manifest(), "metadata")).containsEntry("name", "tickler-sweeper");
        assertThat(map(named("knative/service.yaml").manifest(), "metadata")).containsEntry("name", "tickler");
    }

    private Duration backlogDrain() {
        int backlog = Integer.parseInt(PlatformContainer.configMap().get("TICKLER_DELIVERY_MAX_BACKLOG"));
        // the slowest provider the target is sized for: 256 calls in flight, 3 s each
        return Duration.ofSeconds(backlog * 3L / 256);
    }

    private static int nativeHeapMib() throws IOException {
        Matcher xmx = Pattern.compile("\"-Xmx(\\d+)m\"").matcher(Files.readString(Path.of("Dockerfile.native")));
        assertThat(xmx.find()).as("-Xmx in the native entrypoint").isTrue();
        return Integer.parseInt(xmx.group(1));
    }

    private static String argDefault(String dockerfile, String reference) {
        String name = reference.substring(2, reference.length() - 1);
        Matcher arg = Pattern.compile("(?m)^ARG " + name + "=(\\S+)").matcher(dockerfile);
        assertThat(arg.find()).as("ARG " + name).isTrue();
        return arg.group(1);
    }

    private PlatformContainer named(String file) {
        return containers.stream().filter(container -> container.name().equals(file)).findFirst().orElseThrow();
    }

    private static Properties applicationProperties() throws IOException {
        Properties properties = new Properties();
        try (var reader = Files.newBufferedReader(Path.of("src", "main", "resources", "application.properties"))) {
            properties.load(reader);
        }
        return properties;
    }
}
