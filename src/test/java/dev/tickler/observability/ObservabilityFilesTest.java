package dev.tickler.observability;

import static dev.tickler.testing.Api.createdId;
import static dev.tickler.testing.Api.pushReminderAt;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.quarkus.test.junit.QuarkusTest;

import dev.tickler.testing.Api;
import dev.tickler.testing.Metrics;
import dev.tickler.testing.Push;

/**
 * The alerting rules and the Grafana dashboard under deploy/observability only query series the application
 * exports, under the labels it gives them, and every alert tells an operator how urgent it is and what to do.
 * promtool checks the PromQL and the alerts' behaviour (alerts-test.yaml); this checks the names, which promtool
 * cannot know.
 */
@QuarkusTest
class ObservabilityFilesTest {

    private static final Path DIR = Path.of("deploy", "observability");
    private static final Path ALERTS = DIR.resolve("alerts.yaml");
    private static final Path ALERT_TESTS = DIR.resolve("alerts-test.yaml");
    private static final Path DASHBOARD = DIR.resolve("grafana-dashboard.json");
    private static final Duration DEADLINE = Duration.ofSeconds(30);

    private static final Pattern METRIC = Pattern.compile("\\b(tickler_[a-z_]+|http_server_requests_seconds[a-z_]*)");
    private static final Pattern SELECTOR = Pattern.compile(METRIC.pattern() + "\\s*\\{([^}]*)}");
    private static final Pattern MATCHER = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)\\s*(=~|!~|!=|=)\\s*\"([^\"]*)\"");
    private static final Pattern GROUPING = Pattern.compile("\\b(?:by|without)\\s*\\(([^)]*)\\)");
    private static final Pattern SAMPLE = Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\\{(.*)})? \\S+");
    private static final Pattern LABEL = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"((?:[^\"\\\\]|\\\\.)*)\"");
    /** Added by Prometheus when it scrapes, so never on the application's own page. */
    private static final Set<String> TARGET_LABELS = Set.of("job", "instance", "namespace");

    @Test
    void everyMetricTheAlertsAndTheDashboardUseIsExported() throws IOException {
        Map<String, Set<String>> used = usedMetrics(queries());
        assertThat(used).as("metric names found in the rules and the dashboard").isNotEmpty()
                .containsKeys("tickler_dispatch_lag_seconds_bucket", "tickler_reminders_oldest_overdue_seconds",
                        "tickler_notify_responses_total", "tickler_reminders", "tickler_queue_delayed_gap",
                        "http_server_requests_seconds_count");

        exerciseEveryMeter();

        await().atMost(DEADLINE).untilAsserted(() -> {
            Map<String, List<Map<String, String>>> exported = samples(Metrics.page());
            Map<String, Set<String>> missing = new TreeMap<>(used);
            missing.keySet().removeAll(exported.keySet());
            assertThat(missing).as("series queried (metric -> where) that the application does not export").isEmpty();
        });
    }

    @Test
    void everyLabelTheQueriesSelectOrGroupByIsOnTheMetric() throws IOException {
        List<Query> queries = queries();
        exerciseEveryMeter();

        await().atMost(DEADLINE).untilAsserted(() -> {
            Map<String, List<Map<String, String>>> exported = samples(Metrics.page());
            List<String> problems = new ArrayList<>();
            for (Query query : queries) {
                problems.addAll(labelProblems(query, exported));
            }
            assertThat(problems).as("labels the queries need that the exported series lack").isEmpty();
        });
    }

    @Test
    void everyAlertSaysHowLongHowUrgentAndWhatToDo() throws IOException {
        List<Map<String, Object>> alerts = alertRules();

        assertThat(alerts).hasSizeGreaterThanOrEqualTo(5);
        for (Map<String, Object> alert : alerts) {
            String name = String.valueOf(alert.get("alert"));
            assertThat(alert).as(name).containsKeys("expr", "for", "labels", "annotations");
            assertThat(String.valueOf(alert.get("for"))).as(name + " for").matches("\\d+[smh]");
            assertThat(map(alert, "labels")).as(name + " labels").containsKey("severity");
            assertThat(String.valueOf(map(alert, "labels").get("severity"))).as(name + " severity").isIn("page", "ticket");
            Map<String, Object> annotations = map(alert, "annotations");
            assertThat(annotations).as(name + " annotations").containsKeys("summary", "description");
            assertThat(String.valueOf(annotations.get("summary"))).as(name + " summary").isNotBlank();
            assertThat(String.valueOf(annotations.get("description"))).as(name + " description").isNotBlank();
        }
    }

    @Test
    void everyAlertHasAPromtoolCaseWhereItFiresAndOneWhereItStaysQuiet() throws IOException {
        Set<String> names = new TreeSet<>();
        alertRules().forEach(alert -> names.add(String.valueOf(alert.get("alert"))));
        Set<String> fired = new TreeSet<>();
        Set<String> quiet = new TreeSet<>();

        Map<String, Object> tests = yaml(ALERT_TESTS).get(0);
        assertThat(list(tests, "rule_files")).containsExactly(ALERTS.getFileName().toString());
        for (Object test : list(tests, "tests")) {
            for (Object check : list(cast(test), "alert_rule_test")) {
                Map<String, Object> alertCheck = cast(check);
                String name = String.valueOf(alertCheck.get("alertname"));
                List<Object> expected = list(alertCheck, "exp_alerts");
                (expected.isEmpty() ? quiet : fired).add(name);
            }
        }

        assertThat(fired).as("alerts with a case that fires them").isEqualTo(names);
        assertThat(quiet).as("alerts with a case where they must not fire").isEqualTo(names);
    }

    @Test
    void theDashboardHasItsOwnUidAndItsDataSourceAsAVariable() throws IOException {
        JsonNode dashboard = new ObjectMapper().readTree(DASHBOARD.toFile());

        assertThat(dashboard.path("uid").asText()).isEqualTo("tickler-overview");
        // an import-time input (${DS_PROMETHEUS}) is resolved only by the UI's import; a variable also when provisioned
        assertThat(dashboard.has("__inputs")).isFalse();
        JsonNode variable = dashboard.path("templating").path("list").path(0);
        assertThat(variable.path("name").asText()).isEqualTo("datasource");
        assertThat(variable.path("type").asText()).isEqualTo("datasource");
        assertThat(variable.path("query").asText()).isEqualTo("prometheus");
        for (JsonNode panel : dashboard.path("panels")) {
            if (!"row".equals(panel.path("type").asText())) {
                assertThat(panel.path("datasource").path("uid").asText()).as(panel.path("title").asText())
                        .isEqualTo("${datasource}");
                assertThat(panel.path("fieldConfig").path("defaults").path("unit").asText())
                        .as("unit of " + panel.path("title").asText()).isNotBlank();
                assertThat(panel.path("targets")).as("queries of " + panel.path("title").asText()).isNotEmpty();
            }
        }
    }

    /** A delivered push reminder, a sweep and an ignored push: every meter that appears only once used exists. */
    private static void exerciseEveryMeter() {
        long sent = createdId(pushReminderAt(Instant.now()));
        await().atMost(DEADLINE).untilAsserted(() -> Api.get(sent).body("state", equalTo("sent")));
        Api.api().post("/v1/sweep").then().statusCode(200);
        Push.push(Push.message(999_999_999L, 0)).statusCode(200);
    }

    /** One PromQL expression and where it came from. */
    private record Query(String where, String expr) {
    }

    /** Every alert and recording rule's expr, every dashboard target's expr and every variable's query. */
    private static List<Query> queries() throws IOException {
        List<Query> queries = new ArrayList<>();
        for (Object group : list(yaml(ALERTS).get(0), "groups")) {
            for (Object rule : list(cast(group), "rules")) {
                Map<String, Object> r = cast(rule);
                String name = String.valueOf(r.containsKey("alert") ? r.get("alert") : r.get("record"));
                queries.add(new Query(ALERTS.getFileName() + " " + name, String.valueOf(r.get("expr"))));
            }
        }
        JsonNode dashboard = new ObjectMapper().readTree(DASHBOARD.toFile());
        collectExprs(dashboard, DASHBOARD.getFileName().toString(), queries);
        for (JsonNode variable : dashboard.path("templating").path("list")) {
            if ("datasource".equals(variable.path("type").asText())) {
                continue;
            }
            JsonNode query = variable.path("query");
            queries.add(new Query(DASHBOARD.getFileName() + " $" + variable.path("name").asText(),
                    query.isObject() ? query.path("query").asText() : query.asText()));
        }
        return queries;
    }

    private static void collectExprs(JsonNode node, String where, List<Query> queries) {
        if (node.isObject()) {
            String here = node.has("title") ? DASHBOARD.getFileName() + " \"" + node.get("title").asText() + "\"" : where;
            for (Iterator<Map.Entry<String, JsonNode>> fields = node.fields(); fields.hasNext();) {
                Map.Entry<String, JsonNode> field = fields.next();
                if ("expr".equals(field.getKey())) {
                    queries.add(new Query(here, field.getValue().asText()));
                } else {
                    collectExprs(field.getValue(), here, queries);
                }
            }
        } else if (node.isArray()) {
            node.forEach(child -> collectExprs(child, where, queries));
        }
    }

    /** Metric name as queried (with _bucket, _count, _sum, _max or _total: what Prometheus stores) -> where. */
    private static Map<String, Set<String>> usedMetrics(List<Query> queries) {
        Map<String, Set<String>> used = new TreeMap<>();
        for (Query query : queries) {
            for (String metric : metrics(query.expr())) {
                used.computeIfAbsent(metric, name -> new LinkedHashSet<>()).add(query.where());
            }
        }
        return used;
    }

    private static Set<String> metrics(String expr) {
        Set<String> metrics = new LinkedHashSet<>();
        Matcher matcher = METRIC.matcher(expr);
        while (matcher.find()) {
            metrics.add(matcher.group(1));
        }
        return metrics;
    }

    /**
     * Labels the query filters on must be on the metric it filters (and an exact value must occur); labels it
     * aggregates by must be on one of its metrics. Labels Prometheus adds at scrape time are left out.
     */
    private static List<String> labelProblems(Query query, Map<String, List<Map<String, String>>> exported) {
        List<String> problems = new ArrayList<>();
        Set<String> metrics = metrics(query.expr());
        Matcher selector = SELECTOR.matcher(query.expr());
        while (selector.find()) {
            String metric = selector.group(1);
            List<Map<String, String>> series = exported.getOrDefault(metric, List.of());
            Matcher matcher = MATCHER.matcher(selector.group(2));
            while (matcher.find()) {
                String label = matcher.group(1);
                String value = matcher.group(3);
                if (TARGET_LABELS.contains(label)) {
                    continue;
                }
                if (series.stream().noneMatch(labels -> labels.containsKey(label))) {
                    problems.add(query.where() + ": " + metric + " has no label " + label);
                } else if ("=".equals(matcher.group(2))
                        && series.stream().noneMatch(labels -> value.equals(labels.get(label)))) {
                    problems.add(query.where() + ": " + metric + " has no series with " + label + "=\"" + value + "\"");
                }
            }
        }
        Matcher grouping = GROUPING.matcher(query.expr());
        while (grouping.find()) {
            for (String label : grouping.group(1).split(",")) {
                String name = label.trim();
                if (name.isEmpty() || TARGET_LABELS.contains(name)) {
                    continue;
                }
                boolean onSomeMetric = metrics.stream().anyMatch(metric -> exported.getOrDefault(metric, List.of())
                        .stream().anyMatch(labels -> labels.containsKey(name)));
                if (!onSomeMetric) {
                    problems.add(query.where() + ": none of " + metrics + " has the label " + name + " it groups by");
                }
            }
        }
        return problems;
    }

    /** Sample name -> the label sets it is exported with, as a scraper reads the page. */
    private static Map<String, List<Map<String, String>>> samples(String page) {
        Map<String, List<Map<String, String>>> samples = new HashMap<>();
        for (String line : page.split("\n")) {
            Matcher sample = SAMPLE.matcher(line);
            if (line.startsWith("#") || !sample.find()) {
                continue;
            }
            Map<String, String> labels = new HashMap<>();
            if (sample.group(2) != null) {
                Matcher label = LABEL.matcher(sample.group(2));
                while (label.find()) {
                    labels.put(label.group(1), label.group(2));
                }
            }
            samples.computeIfAbsent(sample.group(1), name -> new ArrayList<>()).add(labels);
        }
        return samples;
    }

    private static List<Map<String, Object>> alertRules() throws IOException {
        List<Map<String, Object>> alerts = new ArrayList<>();
        Set<String> names = new HashSet<>();
        for (Object group : list(yaml(ALERTS).get(0), "groups")) {
            for (Object rule : list(cast(group), "rules")) {
                Map<String, Object> r = cast(rule);
                if (r.containsKey("alert")) {
                    assertThat(names.add(String.valueOf(r.get("alert")))).as("unique alert name " + r.get("alert")).isTrue();
                    alerts.add(r);
                }
            }
        }
        return alerts;
    }

    private static List<Map<String, Object>> yaml(Path file) throws IOException {
        List<Map<String, Object>> documents = new ArrayList<>();
        try (Reader reader = Files.newBufferedReader(file)) {
            for (Object document : new Yaml().loadAll(reader)) {
                documents.add(cast(document));
            }
        }
        assertThat(documents).as(file.toString()).hasSize(1);
        return documents;
    }

    private static Map<String, Object> map(Map<String, Object> parent, String key) {
        assertThat(parent).containsKey(key);
        return cast(parent.get(key));
    }

    @SuppressWarnings("unchecked")
    private static List<Object> list(Map<String, Object> parent, String key) {
        assertThat(parent).containsKey(key);
        assertThat(parent.get(key)).as(key).isInstanceOf(List.class);
        return (List<Object>) parent.get(key);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> cast(Object node) {
        assertThat(node).isInstanceOf(Map.class);
        return (Map<String, Object>) node;
    }
}
