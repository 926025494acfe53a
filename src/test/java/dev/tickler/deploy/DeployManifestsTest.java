package dev.tickler.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

/** Every manifest under deploy/ parses and says what it is; the services probe the management port. */
class DeployManifestsTest {

    private static final Path DEPLOY = Path.of("deploy");
    /** Prometheus rules and their promtool tests, not manifests: ObservabilityFilesTest and promtool check them. */
    private static final Path OBSERVABILITY = DEPLOY.resolve("observability");

    @Test
    void everyManifestParsesAndNamesItsKind() throws IOException {
        List<Map<String, Object>> documents = documents();

        assertThat(documents).hasSizeGreaterThanOrEqualTo(7);
        for (Map<String, Object> document : documents) {
            assertThat(document).containsKeys("apiVersion", "kind", "metadata");
            assertThat(map(document, "metadata")).containsKey("name");
        }
        assertThat(documents).extracting(document -> document.get("kind"))
                .contains("Service", "Secret", "ConfigMap", "Job", "CloudSchedulerJob");
    }

    @Test
    void servicesProbeTheManagementHealthAndTakeSecretsFromTheEnvironment() throws IOException {
        List<Map<String, Object>> services = documents().stream()
                .filter(document -> "serving.knative.dev/v1".equals(document.get("apiVersion"))).toList();

        assertThat(services).hasSizeGreaterThanOrEqualTo(3);
        for (Map<String, Object> service : services) {
            Map<String, Object> container = container(service);
            Map<String, Object> probe = map(container, container.containsKey("readinessProbe") ? "readinessProbe"
                    : "startupProbe");
            assertThat(map(probe, "httpGet")).containsEntry("port", 9000).containsEntry("path", "/q/health/ready");
            assertThat(String.valueOf(container)).containsAnyOf("secretRef", "secretKeyRef");
        }
    }

    @Test
    void cloudRunKeepsTheCpuAfterTheResponse() throws IOException {
        Map<String, Object> cloudRun = documents(DEPLOY.resolve("cloudrun/service.yaml")).get(0);
        Map<String, Object> annotations = map(map(map(map(cloudRun, "spec"), "template"), "metadata"), "annotations");

        assertThat(annotations).containsEntry("run.googleapis.com/cpu-throttling", "false");
    }

    @Test
    void theJvmOverlayRunsTheJvmImageWithRoomForItsHeap() throws IOException {
        Map<String, Object> overlay = documents(DEPLOY.resolve("knative/jvm/kustomization.yaml")).get(0);
        String patches = String.valueOf(overlay.get("patches"));

        assertThat(overlay.get("resources")).isEqualTo(List.of("../"));
        assertThat(patches).contains("name=tickler}").contains("name=tickler-sweeper}")
                .contains("registry.example.com/tickler:1.0.0-jvm").contains("512Mi");
        assertThat(documents(DEPLOY.resolve("knative/kustomization.yaml")).get(0).get("resources"))
                .isEqualTo(List.of("service.yaml", "sweeper.yaml"));
    }

    @Test
    void reconcileIsScheduledEveryMinuteWhereverTheSweepIs() throws IOException {
        List<Map<String, Object>> jobs = documents(DEPLOY.resolve("cloudrun/sweep-scheduler.yaml"));
        Map<String, Object> reconcile = jobs.stream()
                .filter(job -> String.valueOf(map(map(job, "spec"), "httpTarget").get("uri")).endsWith("/v1/reconcile"))
                .findFirst().orElseThrow(() -> new AssertionError("no Cloud Scheduler job calls /v1/reconcile"));
        assertThat(map(reconcile, "spec")).containsEntry("schedule", "* * * * *");

        Map<String, Object> sweeper = container(documents(DEPLOY.resolve("knative/sweeper.yaml")).get(0));
        assertThat(String.valueOf(sweeper.get("env"))).contains("TICKLER_RECONCILE_EVERY").contains("value=1m");
    }

    private static List<Map<String, Object>> documents() throws IOException {
        List<Map<String, Object>> documents = new ArrayList<>();
        try (Stream<Path> files = Files.walk(DEPLOY)) {
            for (Path file : files.filter(path -> path.toString().endsWith(".yaml") && !path.startsWith(OBSERVABILITY))
                    .sorted().toList()) {
                documents.addAll(documents(file));
            }
        }
        return documents;
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> documents(Path file) throws IOException {
        List<Map<String, Object>> documents = new ArrayList<>();
        try (Reader reader = Files.newBufferedReader(file)) {
            for (Object document : new Yaml().loadAll(reader)) {
                assertThat(document).as("a document of %s", file).isInstanceOf(Map.class);
                documents.add((Map<String, Object>) document);
            }
        }
        return documents;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Map<String, Object> parent, String key) {
        assertThat(parent).containsKey(key);
        return (Map<String, Object>) parent.get(key);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> container(Map<String, Object> service) {
        List<Object> containers = (List<Object>) map(map(map(service, "spec"), "template"), "spec").get("containers");
        assertThat(containers).isNotEmpty();
        return (Map<String, Object>) containers.get(0);
    }
}
