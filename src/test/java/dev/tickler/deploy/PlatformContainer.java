package dev.tickler.deploy;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

import org.yaml.snakeyaml.Yaml;

/**
 * The Tickler container of one manifest as its platform runs it: the environment the platform gives it (the
 * ConfigMap and Secret it names, its own env, Secret Manager references), its probes, its memory, and how long it has
 * between SIGTERM and SIGKILL. Read by {@link DeployManifestsTest} and {@link ManifestEnvironmentCheck}.
 */
record PlatformContainer(String name, Platform platform, Map<String, Object> manifest, Map<String, Object> container,
        Map<String, String> environment, List<Probe> probes, int servingPort, int secondsAfterSigterm) {

    static final Path DEPLOY = Path.of("deploy");

    /**
     * Knative's queue-proxy holds the user container's preStop hook until it has drained for its quiet period
     * (knative/serving pkg/queue/sharedmain: drainSleepDuration): the application's SIGTERM comes this much into the
     * pod's termination grace, which Knative sets to the revision's timeoutSeconds (resources.BuildPodSpec).
     */
    static final int KNATIVE_DRAIN_SECONDS = 30;
    /** Cloud Run sends SIGKILL this long after SIGTERM; it cannot be configured. */
    static final int CLOUD_RUN_SECONDS_AFTER_SIGTERM = 10;

    enum Platform {
        KNATIVE, CLOUD_RUN, KUBERNETES_JOB, CLOUD_RUN_JOB
    }

    /** One probe as written: its kind (readinessProbe, livenessProbe, startupProbe), path and port. */
    record Probe(String kind, String path, int port) {
    }

    /** The value of each secret key, by its environment variable's name. */
    interface Secrets extends UnaryOperator<String> {
    }

    static List<PlatformContainer> all(Secrets secrets) {
        List<PlatformContainer> all = new ArrayList<>();
        Map<String, String> configMap = configMap();
        for (String file : List.of("knative/service.yaml", "knative/sweeper.yaml")) {
            all.add(of(file, Platform.KNATIVE, configMap, secrets));
        }
        all.add(of("kubernetes/migration-job.yaml", Platform.KUBERNETES_JOB, configMap, secrets));
        for (String file : List.of("cloudrun/service.yaml", "cloudrun/sweeper.yaml")) {
            all.add(of(file, Platform.CLOUD_RUN, configMap, secrets));
        }
        all.add(of("cloudrun/migrate-job.yaml", Platform.CLOUD_RUN_JOB, configMap, secrets));
        return all;
    }

    static PlatformContainer named(String file, Secrets secrets) {
        return all(secrets).stream().filter(container -> container.name().equals(file)).findFirst().orElseThrow();
    }

    /** The keys of the Secret the Knative deployment reads, as secrets.env.example lists them. */
    static List<String> secretKeys() {
        List<String> keys = new ArrayList<>();
        for (String line : lines(DEPLOY.resolve("kubernetes/secrets.env.example"))) {
            if (!line.isBlank() && !line.startsWith("#")) {
                keys.add(line.substring(0, line.indexOf('=')));
            }
        }
        return keys;
    }

    static Map<String, String> configMap() {
        return cast(map(documents(DEPLOY.resolve("kubernetes/configmap.yaml")).get(0), "data"));
    }

    boolean isJob() {
        return platform == Platform.KUBERNETES_JOB || platform == Platform.CLOUD_RUN_JOB;
    }

    /** The memory limit in MiB. */
    int memoryLimitMib() {
        Map<String, Object> resources = map(container, "resources");
        return mebibytes(String.valueOf(map(resources, "limits").get("memory")));
    }

    /** The memory request in MiB; Cloud Run has none and reserves the limit. */
    int memoryRequestMib() {
        Map<String, Object> resources = map(container, "resources");
        Object requests = resources.get("requests");
        if (requests == null) {
            return memoryLimitMib();
        }
        Map<String, Object> request = cast(requests);
        return mebibytes(String.valueOf(request.get("memory")));
    }

    Map<String, Object> templateAnnotations() {
        Map<String, Object> metadata = cast(map(map(manifest, "spec"), "template").get("metadata"));
        return metadata == null || metadata.get("annotations") == null ? Map.of() : cast(metadata.get("annotations"));
    }

    Map<String, Object> templateSpec() {
        return map(map(map(manifest, "spec"), "template"), "spec");
    }

    private static PlatformContainer of(String file, Platform platform, Map<String, String> configMap,
            Secrets secrets) {
        Map<String, Object> manifest = documents(DEPLOY.resolve(file)).get(0);
        Map<String, Object> podSpec = switch (platform) {
            case CLOUD_RUN_JOB -> map(map(map(map(manifest, "spec"), "template"), "spec"), "template");
            default -> map(map(manifest, "spec"), "template");
        };
        podSpec = map(podSpec, "spec");
        List<Object> containers = cast(podSpec.get("containers"));
        Map<String, Object> container = cast(containers.get(0));

        Map<String, String> environment = new LinkedHashMap<>();
        if (container.get("envFrom") != null) {
            for (Object source : (List<?>) container.get("envFrom")) {
                Map<String, Object> from = cast(source);
                if (from.containsKey("configMapRef")) {
                    environment.putAll(configMap);
                } else if (from.containsKey("secretRef")) {
                    secretKeys().forEach(key -> environment.put(key, secrets.apply(key)));
                }
            }
        }
        if (container.get("env") != null) {
            for (Object entry : (List<?>) container.get("env")) {
                Map<String, Object> variable = cast(entry);
                String name = String.valueOf(variable.get("name"));
                // a Secret Manager reference: the platform puts that secret's value here
                environment.put(name, variable.containsKey("valueFrom") ? secrets.apply(name)
                        : String.valueOf(variable.get("value")));
            }
        }

        int servingPort = 0;
        if (container.get("ports") != null) {
            Map<String, Object> port = cast(((List<?>) container.get("ports")).get(0));
            servingPort = (Integer) port.get("containerPort");
        }
        List<Probe> probes = new ArrayList<>();
        for (String kind : List.of("startupProbe", "readinessProbe", "livenessProbe")) {
            if (container.get(kind) != null) {
                Map<String, Object> probe = cast(container.get(kind));
                Map<String, Object> get = probe.get("httpGet") == null ? null : cast(probe.get("httpGet"));
                Map<String, Object> tcp = probe.get("tcpSocket") == null ? null : cast(probe.get("tcpSocket"));
                Map<String, Object> action = get != null ? get : tcp;
                Object port = action == null ? null : action.get("port");
                probes.add(new Probe(kind, get == null ? null : String.valueOf(get.get("path")),
                        port == null ? servingPort : (Integer) port));
            }
        }
        int seconds = switch (platform) {
            case KNATIVE -> (Integer) podSpec.get("timeoutSeconds") - KNATIVE_DRAIN_SECONDS;
            case CLOUD_RUN -> CLOUD_RUN_SECONDS_AFTER_SIGTERM;
            default -> 0;
        };
        return new PlatformContainer(file, platform, manifest, container, environment, probes, servingPort, seconds);
    }

    static int mebibytes(String quantity) {
        if (quantity.endsWith("Mi")) {
            return Integer.parseInt(quantity.substring(0, quantity.length() - 2));
        }
        if (quantity.endsWith("Gi")) {
            return Integer.parseInt(quantity.substring(0, quantity.length() - 2)) * 1024;
        }
        throw new IllegalArgumentException("a memory quantity in Mi or Gi: " + quantity);
    }

    static List<Map<String, Object>> documents(Path file) {
        List<Map<String, Object>> documents = new ArrayList<>();
        try (Reader reader = Files.newBufferedReader(file)) {
            for (Object document : new Yaml().loadAll(reader)) {
                documents.add(cast(document));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return documents;
    }

    private static List<String> lines(Path file) {
        try {
            return Files.readAllLines(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static Map<String, Object> map(Map<String, Object> parent, String key) {
        Object child = parent.get(key);
        if (!(child instanceof Map)) {
            throw new AssertionError("no " + key + " in " + parent.keySet());
        }
        return cast(child);
    }

    @SuppressWarnings("unchecked")
    static <T> T cast(Object node) {
        return (T) node;
    }
}
