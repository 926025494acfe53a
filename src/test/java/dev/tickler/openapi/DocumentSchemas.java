package dev.tickler.openapi;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.InputFormat;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.dialect.Dialects;

import io.restassured.response.Response;

/**
 * The schemas of the stored API document (docs/openapi.json), checked by a JSON Schema validator of OpenAPI 3.1's
 * dialect. Checked strictly: an object the document describes may hold only the properties it names (a field the
 * document calls userId and the wire user_id would pass otherwise), so the validator reads a copy in which every such
 * object says additionalProperties false. Maps (data, counts) keep the additionalProperties they declare.
 */
final class DocumentSchemas {

    private static final ObjectMapper JSON = new ObjectMapper();
    /** Where the validator finds the strict copy, which it is handed and never fetches (.invalid is no host). */
    private static final String STRICT = "https://tickler.invalid/openapi.json";

    private final JsonNode document;
    private final SchemaRegistry registry;

    private DocumentSchemas(JsonNode document, SchemaRegistry registry) {
        this.document = document;
        this.registry = registry;
    }

    static DocumentSchemas stored() {
        try {
            JsonNode document = JSON.readTree(Files.readString(StoredApiDocumentTest.STORED));
            JsonNode strict = document.deepCopy();
            closeObjects(strict.path("components"));
            String strictText = JSON.writeValueAsString(strict);
            return new DocumentSchemas(document, SchemaRegistry.withDialect(Dialects.getOpenApi31(),
                    registry -> registry.schemas(Map.of(STRICT, strictText))));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    JsonNode document() {
        return document;
    }

    /**
     * Asserts that the answer is one the document declares for the operation, status and media type, and that its body
     * matches the schema declared for it.
     */
    void assertAnswers(String method, String path, Response answer) {
        String status = String.valueOf(answer.statusCode());
        String mediaType = answer.contentType().split(";")[0].trim();
        JsonNode declared = document.path("paths").path(path).path(method).path("responses").path(status);
        assertThat(declared.isMissingNode()).as("%s %s declares %s", method, path, status).isFalse();
        JsonNode schema = declared.path("content").path(mediaType).path("schema");
        assertThat(schema.has("$ref")).as("%s %s %s declares a schema for %s", method, path, status, mediaType)
                .isTrue();
        assertMatches(schema.path("$ref").asText(), answer.asString());
    }

    /** Asserts that the JSON text matches the schema at the reference, e.g. #/components/schemas/ReminderView. */
    void assertMatches(String reference, String json) {
        Schema schema = registry.getSchema(SchemaLocation.of(STRICT + reference));
        List<?> errors = schema.validate(json, InputFormat.JSON);
        assertThat(errors).as("%s against %s", json, reference).isEmpty();
    }

    private static void closeObjects(JsonNode node) {
        if (node.isObject()) {
            if (node.path("properties").isObject() && !node.has("additionalProperties")) {
                ((ObjectNode) node).put("additionalProperties", false);
            }
            for (Iterator<Map.Entry<String, JsonNode>> fields = node.fields(); fields.hasNext();) {
                Map.Entry<String, JsonNode> field = fields.next();
                if (!field.getKey().equals("examples")) {
                    closeObjects(field.getValue());
                }
            }
        } else if (node.isArray()) {
            node.forEach(DocumentSchemas::closeObjects);
        }
    }
}
