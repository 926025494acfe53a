package dev.tickler.testing;

import java.util.ArrayList;
import java.util.List;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;

/** What PostgreSQL did for one statement: EXPLAIN's JSON plan, and its nodes flattened for assertions. */
public record QueryPlan(JsonObject plan) {

    /**
     * EXPLAIN with the given options, e.g. "ANALYZE, FORMAT JSON", for the statement and its parameters, through a pool
     * or one connection (whose open transaction it then sees).
     */
    public static QueryPlan explain(SqlClient client, String options, String sql, Object... parameters) {
        return of(client.preparedQuery("EXPLAIN (" + options + ") " + sql).execute(Tuple.from(parameters))
                .await().indefinitely());
    }

    /** The plan an EXPLAIN with FORMAT JSON answered. */
    public static QueryPlan of(RowSet<Row> explained) {
        Object result = explained.iterator().next().getValue(0);
        JsonArray plans = result instanceof JsonArray array ? array : new JsonArray(result.toString());
        return new QueryPlan(plans.getJsonObject(0));
    }

    public List<JsonObject> nodes() {
        List<JsonObject> nodes = new ArrayList<>();
        collect(plan.getJsonObject("Plan"), nodes);
        return nodes;
    }

    public List<String> nodeTypes() {
        return nodes().stream().map(node -> node.getString("Node Type")).toList();
    }

    /** The tables the plan reads from end to end. */
    public List<String> seqScanned() {
        return nodes().stream().filter(node -> "Seq Scan".equals(node.getString("Node Type")))
                .map(node -> node.getString("Relation Name")).toList();
    }

    /** Index names of every scan in the plan. */
    public List<String> indexes() {
        return nodes().stream().map(node -> node.getString("Index Name")).filter(name -> name != null).toList();
    }

    public double executionMillis() {
        return plan.getDouble("Execution Time", 0.0);
    }

    private static void collect(JsonObject node, List<JsonObject> into) {
        into.add(node);
        JsonArray children = node.getJsonArray("Plans");
        if (children != null) {
            for (int i = 0; i < children.size(); i++) {
                collect(children.getJsonObject(i), into);
            }
        }
    }
}
