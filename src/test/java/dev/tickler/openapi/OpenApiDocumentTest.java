package dev.tickler.openapi;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.quarkus.test.junit.QuarkusTest;

import dev.tickler.security.Roles;
import dev.tickler.testing.InfraiEmulatorResource;

/**
 * The API document as a product: every operation under /v1, those added later included, has a summary, the bearer
 * scheme with its role, and its error answers as problem documents. Checked on the served document and on the one
 * stored when the application is built.
 */
@QuarkusTest
class OpenApiDocumentTest {

    private static final Set<String> METHODS = Set.of("get", "put", "post", "delete", "patch");
    private static final String PROBLEM_REF = "#/components/schemas/Problem";
    private static final Path STORED = Path.of("target", "openapi", "openapi.json");
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void everyApiOperationHasASummaryItsRoleAndItsProblemAnswers() {
        JsonNode document = served();
        List<String> checked = new ArrayList<>();
        SoftAssertions softly = new SoftAssertions();

        forEachApiOperation(document, (name, path, operation) -> {
            checked.add(name);
            softly.assertThat(operation.path("summary").asText("")).as(name + " summary").isNotBlank();
            softly.assertThat(operation.path("security").toString()).as(name + " security")
                    .isEqualTo("[{\"bearer\":[\"" + roleOf(path) + "\"]}]");

            JsonNode responses = operation.path("responses");
            // 400 on every one: an unknown query parameter is refused everywhere
            Set<String> required = new HashSet<>(Set.of("400", "401", "403", "429", "500", "503"));
            boolean hasBody = operation.has("requestBody");
            if (path.contains("{")) {
                required.add("404");
            }
            if (hasBody) {
                required.addAll(Set.of("413", "415"));
            }
            softly.assertThat(fieldNames(responses)).as(name + " responses").containsAll(required)
                    .anySatisfy(status -> assertThat(status).startsWith("2"));
            responses.fields().forEachRemaining(response -> {
                if (response.getKey().startsWith("4") || response.getKey().startsWith("5")) {
                    softly.assertThat(fieldNames(response.getValue().path("content"))).as(name + " " + response.getKey())
                            .containsExactly("application/problem+json");
                    softly.assertThat(response.getValue().path("content").path("application/problem+json")
                            .path("schema").path("$ref").asText()).as(name + " " + response.getKey())
                            .isEqualTo(PROBLEM_REF);
                    softly.assertThat(response.getValue().path("description").asText()).as(name + " " + response.getKey())
                            .isNotBlank().isNotIn("Bad Request", "Not Authorized", "Not Allowed");
                }
            });
            softly.assertThat(responses.path("503").path("headers").has("Retry-After")).as(name + " 503 Retry-After")
                    .isTrue();
        });

        softly.assertAll();
        assertThat(checked).contains("POST /v1/reminders", "GET /v1/reminders/{id}", "POST /v1/sweep",
                "GET /v1/admin/reminders", "POST /v1/admin/redrive").hasSizeGreaterThanOrEqualTo(16);
    }

    @Test
    void stateConflictsAndTheTwoAnswersOfRegistrationAreDeclared() {
        JsonNode paths = served().path("paths");

        assertThat(fieldNames(paths.path("/v1/reminders/{id}").path("patch").path("responses"))).contains("409");
        assertThat(fieldNames(paths.path("/v1/reminders/{id}").path("delete").path("responses"))).contains("409");
        assertThat(fieldNames(paths.path("/v1/reminders/{id}/redrive").path("post").path("responses"))).contains("409");
        assertThat(paths.path("/v1/reminders/{id}").path("patch").path("responses").path("409").path("description")
                .asText()).contains("pending, handed-off or failed");
        assertThat(fieldNames(paths.path("/v1/reminders").path("post").path("responses"))).contains("200", "201");
        assertThat(fieldNames(paths.path("/v1/reminders/by-key/{key}").path("put").path("responses")))
                .contains("200", "201", "409");
        assertThat(fieldNames(paths.path("/v1/reminders/by-key/{key}").path("delete").path("responses")))
                .contains("200", "409");
    }

    @Test
    void theProblemSchemaIsTheWireFormat() {
        JsonNode schemas = served().path("components").path("schemas");

        JsonNode problem = schemas.path("Problem");
        assertThat(fieldNames(problem.path("properties"))).containsExactly("type", "title", "status", "detail",
                "errors", "reminder_id", "schedule_id");
        assertThat(problem.path("properties").path("status").path("type").asText()).isEqualTo("integer");
        assertThat(problem.path("properties").path("errors").path("items").path("$ref").asText())
                .isEqualTo("#/components/schemas/FieldError");
        assertThat(fieldNames(schemas.path("FieldError").path("properties"))).containsExactly("field", "message");
    }

    /** A generated client names its methods after operationId and its fields after the schemas' property names. */
    @Test
    void everyOperationHasItsOwnOperationIdAndEveryPropertyIsNamedAsOnTheWire() {
        JsonNode document = served();
        List<String> operationIds = new ArrayList<>();
        SoftAssertions softly = new SoftAssertions();

        forEachApiOperation(document, (name, path, operation) -> {
            softly.assertThat(operation.path("operationId").asText("")).as(name + " operationId")
                    .matches("[a-z]+[A-Za-z]*");
            operationIds.add(operation.path("operationId").asText());
        });
        document.path("components").path("schemas").fields().forEachRemaining(schema -> {
            softly.assertThat(fieldNames(schema.getValue().path("properties"))).as(schema.getKey() + " properties")
                    .allSatisfy(property -> assertThat(property).matches("[a-z][a-z0-9]*(_[a-z0-9]+)*"));
            for (JsonNode required : schema.getValue().path("required")) {
                softly.assertThat(schema.getValue().path("properties").has(required.asText()))
                        .as(schema.getKey() + " requires " + required + ", which it has").isTrue();
            }
        });

        softly.assertAll();
        assertThat(operationIds).doesNotHaveDuplicates();
    }

    /** A body a product engineer can start from: every operation that takes one shows an example of it. */
    @Test
    void everyRequestBodyHasAnExample() {
        JsonNode document = served();
        SoftAssertions softly = new SoftAssertions();

        forEachApiOperation(document, (name, path, operation) -> {
            if (operation.has("requestBody")) {
                JsonNode schema = operation.path("requestBody").path("content").path("application/json")
                        .path("schema");
                JsonNode component = document.at(schema.path("$ref").asText().substring(1));
                softly.assertThat(component.path("examples").isArray() && !component.path("examples").isEmpty())
                        .as(name + " body " + schema + " has an example").isTrue();
            }
        });

        softly.assertAll();
    }

    @Test
    void pagingParametersAreWholeNumbersAndCursors() {
        JsonNode parameters = served().path("paths").path("/v1/reminders").path("get").path("parameters");

        JsonNode limit = null;
        for (JsonNode parameter : parameters) {
            if (parameter.path("name").asText().equals("limit")) {
                limit = parameter;
            }
        }
        assertThat(limit).isNotNull();
        assertThat(limit.path("schema").path("type").asText()).isEqualTo("integer");
        assertThat(limit.path("schema").path("minimum").asInt()).isEqualTo(1);
        assertThat(limit.path("schema").path("maximum").asInt()).isEqualTo(500);
        assertThat(limit.path("schema").path("default").asInt()).isEqualTo(50);
    }

    @Test
    void theDocumentIsStoredWhenTheApplicationIsBuilt() throws IOException {
        assertThat(STORED).as("quarkus.smallrye-openapi.store-schema-directory").exists();
        JsonNode stored = JSON.readTree(Files.readString(STORED));

        assertThat(fieldNames(stored.path("paths"))).containsExactlyInAnyOrderElementsOf(
                fieldNames(served().path("paths")));
        assertThat(stored.path("components").path("schemas").has("Problem")).isTrue();
        assertThat(stored.path("paths").path("/v1/reminders/{id}").path("get").path("responses").path("404")
                .path("content").has("application/problem+json")).isTrue();
    }

    /**
     * docs/contract.md#keys-and-roles: the admin calls, sweep and reconcile need an operator key; everything else a
     * product key.
     */
    private static String roleOf(String path) {
        return path.startsWith("/v1/admin/") || path.equals("/v1/sweep") || path.equals("/v1/reconcile")
                ? Roles.OPERATOR : Roles.PRODUCT;
    }

    /** A numeric id in the path is matched by the route (a bad one is a 404); anything else is checked. */
    interface OperationCheck {
        void check(String name, String path, JsonNode operation);
    }

    private static void forEachApiOperation(JsonNode document, OperationCheck check) {
        document.path("paths").fields().forEachRemaining(path -> {
            if (!path.getKey().startsWith("/v1/")) {
                return;
            }
            path.getValue().fields().forEachRemaining(operation -> {
                if (METHODS.contains(operation.getKey())) {
                    check.check(operation.getKey().toUpperCase() + " " + path.getKey(), path.getKey(),
                            operation.getValue());
                }
            });
        });
    }

    private static List<String> fieldNames(JsonNode node) {
        List<String> names = new ArrayList<>();
        for (Iterator<Map.Entry<String, JsonNode>> fields = node.fields(); fields.hasNext();) {
            names.add(fields.next().getKey());
        }
        return names;
    }

    private static JsonNode served() {
        String body = given().port(InfraiEmulatorResource.managementPort()).accept("application/json")
                .get("/q/openapi?format=json").then().statusCode(200).extract().asString();
        try {
            return JSON.readTree(body);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
