package dev.tickler.openapi;

import java.util.List;
import java.util.Map;
import java.util.Set;

import org.eclipse.microprofile.openapi.OASFactory;
import org.eclipse.microprofile.openapi.OASFilter;
import org.eclipse.microprofile.openapi.models.Components;
import org.eclipse.microprofile.openapi.models.OpenAPI;
import org.eclipse.microprofile.openapi.models.Operation;
import org.eclipse.microprofile.openapi.models.media.Schema;
import org.eclipse.microprofile.openapi.models.media.Schema.SchemaType;
import org.eclipse.microprofile.openapi.models.responses.APIResponse;
import org.eclipse.microprofile.openapi.models.responses.APIResponses;

import io.quarkus.smallrye.openapi.OpenApiFilter;

import dev.tickler.problem.Problem;
import dev.tickler.problem.ProblemMappers;

/**
 * The error answers every /v1 operation shares, declared once: which statuses an operation can answer follows from
 * its shape (a body, parameters, an id in the path, a key), and every error answer, these and those a resource
 * declares itself with {@code @APIResponse} (a 409, say), is an RFC 9457 problem document. Runs when the application
 * is built, so the stored document holds it too.
 */
@OpenApiFilter(stages = OpenApiFilter.RunStage.BUILD)
public class ErrorResponses implements OASFilter {

    static final String API_PREFIX = "/v1/";
    static final String PROBLEM_SCHEMA = "Problem";
    static final String FIELD_ERROR_SCHEMA = "FieldError";

    /** What these statuses mean is the same for every operation. */
    private static final Map<String, String> GENERIC = Map.of(
            "401", "No API key, or one that is not configured (WWW-Authenticate: Bearer)",
            "403", "This key may not make this call: operator calls need a key from tickler.api.operator-keys",
            "413", "The body is larger than this endpoint accepts",
            "415", "The body is not application/json",
            "429", "Too many wrong API keys from this client address within a minute; no key from it is looked at"
                    + " until Retry-After seconds have passed",
            "500", "An unexpected failure; the detail holds an error id that names it in the logs",
            "503", "The database cannot be reached; try again after Retry-After seconds");

    /** Defaults for statuses whose meaning a resource may state more precisely with its own {@code @APIResponse}. */
    private static final Map<String, String> DEFAULTS = Map.of(
            "400", "The request is not valid; errors[] names each field or parameter and what is wrong with it",
            "404", "Nothing with this id");

    /** The descriptions Quarkus gives the responses it adds itself; replaced by ours. */
    private static final Set<String> STOCK_DESCRIPTIONS = Set.of("Bad Request", "Not Authorized", "Not Allowed");

    @Override
    public void filterOpenAPI(OpenAPI openAPI) {
        if (openAPI.getComponents() == null) {
            openAPI.setComponents(OASFactory.createComponents());
        }
        Components components = openAPI.getComponents();
        components.addSchema(FIELD_ERROR_SCHEMA, fieldErrorSchema());
        components.addSchema(PROBLEM_SCHEMA, problemSchema());
        if (openAPI.getPaths() == null || openAPI.getPaths().getPathItems() == null) {
            return;
        }
        openAPI.getPaths().getPathItems().forEach((path, item) -> {
            if (path.startsWith(API_PREFIX) && item.getOperations() != null) {
                item.getOperations().values().forEach(operation -> declareErrors(path, operation));
            }
        });
    }

    private static void declareErrors(String path, Operation operation) {
        if (operation.getResponses() == null) {
            operation.setResponses(OASFactory.createAPIResponses());
        }
        APIResponses responses = operation.getResponses();
        boolean hasBody = operation.getRequestBody() != null;
        // every /v1 call refuses a query parameter it does not take (web.QueryParameters)
        declare(responses, "400");
        // every /v1 path needs a key (quarkus.http.auth.permission.api)
        declare(responses, "401");
        declare(responses, "403");
        declare(responses, "429");
        if (path.contains("{")) {
            declare(responses, "404");
        }
        if (hasBody) {
            declare(responses, "413");
            declare(responses, "415");
        }
        declare(responses, "500");
        declare(responses, "503");
        responses.getAPIResponses().forEach((status, response) -> {
            if (isError(status)) {
                answerWithProblem(status, response);
            }
        });
    }


    private static void declare(APIResponses responses, String status) {
        if (!responses.hasAPIResponse(status)) {
            responses.addAPIResponse(status, OASFactory.createAPIResponse());
        }
    }

    private static void answerWithProblem(String status, APIResponse response) {
        String description = response.getDescription();
        if (GENERIC.containsKey(status)) {
            response.setDescription(GENERIC.get(status));
        } else if (description == null || description.isBlank() || STOCK_DESCRIPTIONS.contains(description)) {
            response.setDescription(DEFAULTS.getOrDefault(status, "Refused; the problem document says why"));
        }
        if (response.getContent() == null || response.getContent().getMediaTypes() == null
                || response.getContent().getMediaTypes().isEmpty()) {
            response.setContent(OASFactory.createContent().addMediaType(Problem.MEDIA_TYPE,
                    OASFactory.createMediaType().schema(OASFactory.createSchema()
                            .ref(PROBLEM_SCHEMA))));
        }
        if (status.equals("503") && (response.getHeaders() == null || !response.getHeaders().containsKey("Retry-After"))) {
            response.addHeader("Retry-After", OASFactory.createHeader()
                    .description("Seconds to wait before trying again (" + ProblemMappers.RETRY_AFTER_SECONDS + ")")
                    .schema(OASFactory.createSchema().addType(SchemaType.INTEGER)));
        }
    }

    private static boolean isError(String status) {
        return status.length() == 3 && (status.charAt(0) == '4' || status.charAt(0) == '5');
    }

    private static Schema problemSchema() {
        return OASFactory.createSchema().addType(SchemaType.OBJECT)
                .description("An RFC 9457 problem document, sent as " + Problem.MEDIA_TYPE)
                .addProperty("type", string("A URI naming the kind of problem, urn:tickler:problem:<kind>")
                        .format("uri-reference"))
                .addProperty("title", string("A short summary of the kind of problem"))
                .addProperty("status", OASFactory.createSchema().addType(SchemaType.INTEGER)
                        .description("The HTTP status"))
                .addProperty("detail", string("What went wrong with this request"))
                .addProperty("errors", OASFactory.createSchema().addType(SchemaType.ARRAY)
                        .description("For a 400 that refuses input: one entry per field or parameter; for a 409"
                                + " registration-differs: one per field that differs")
                        .items(OASFactory.createSchema().ref(FIELD_ERROR_SCHEMA)))
                .addProperty("reminder_id", OASFactory.createSchema().addType(SchemaType.INTEGER).format("int64")
                        .description("For a 409 registration-differs or registration-cancelled: the reminder"
                                + " registered before"))
                .addProperty("schedule_id", OASFactory.createSchema().addType(SchemaType.INTEGER).format("int64")
                        .description("The same for a schedule"))
                .required(List.of("type", "title", "status"));
    }

    private static Schema fieldErrorSchema() {
        return OASFactory.createSchema().addType(SchemaType.OBJECT)
                .description("One refused input")
                .addProperty("field", string("The JSON field (dotted, with [index] in arrays) or query parameter"))
                .addProperty("message", string("What is wrong with it"))
                .required(List.of("field", "message"));
    }

    private static Schema string(String description) {
        return OASFactory.createSchema().addType(SchemaType.STRING).description(description);
    }
}
