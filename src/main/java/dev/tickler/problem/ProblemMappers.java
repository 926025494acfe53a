package dev.tickler.problem;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import jakarta.validation.ConstraintViolation;
import jakarta.validation.ConstraintViolationException;
import jakarta.validation.ElementKind;
import jakarta.validation.Path;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;

import org.jboss.logging.Logger;
import io.vertx.core.http.HttpServerResponse;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;

import io.quarkus.security.AuthenticationFailedException;
import io.quarkus.security.ForbiddenException;
import io.quarkus.security.UnauthorizedException;

import dev.tickler.http.TransportFailure;

/**
 * The one place that turns failures into RFC 9457 problem+json, for the REST layer (its exception mappers) and for the
 * HTTP edge below it ({@link #write}); no stack trace or class name leaves it.
 */
public class ProblemMappers {

    private static final Logger LOG = Logger.getLogger(ProblemMappers.class);

    private static final Map<Class<?>, String> JSON_TYPE_NAMES = Map.of(
            String.class, "a string",
            Map.class, "a JSON object",
            Integer.class, "an integer",
            Long.class, "an integer",
            Boolean.class, "true or false",
            Collection.class, "an array");

    /** How long a caller should wait after a 503 before trying again. */
    public static final String RETRY_AFTER_SECONDS = "5";

    private final ObjectMapper objectMapper;

    public ProblemMappers(ObjectMapper objectMapper) {
        this.objectMapper = objectMapper;
    }

    /** A /v1 call without a known API key; sent with {@code WWW-Authenticate: Bearer}. */
    public static Problem unauthorized() {
        return Problem.of(ProblemType.UNAUTHORIZED,
                "send Authorization: Bearer <api key> with a key configured in tickler.api.keys");
    }

    /** The attribute of a failed authentication that refused a key unread: the seconds its client is to wait. */
    public static final String RETRY_AFTER_ATTRIBUTE = "tickler.retry-after-seconds";

    /** A /v1 call whose client sent too many wrong keys; sent with {@code Retry-After}. */
    public static Problem tooManyWrongKeys() {
        return Problem.of(ProblemType.TOO_MANY_REQUESTS, "too many wrong API keys from this address within a minute;"
                + " no key from it is looked at until Retry-After seconds have passed");
    }

    public Response toResponse(Problem problem) {
        return Response.status(problem.status()).type(Problem.MEDIA_TYPE).entity(json(problem)).build();
    }

    /** Writes the problem as the answer of a request the REST layer never saw (the HTTP edge's refusals). */
    public void write(HttpServerResponse response, Problem problem) {
        response.setStatusCode(problem.status()).putHeader(HttpHeaders.CONTENT_TYPE, Problem.MEDIA_TYPE);
        if (problem.status() == 503) {
            response.putHeader(HttpHeaders.RETRY_AFTER, RETRY_AFTER_SECONDS);
        }
        response.end(json(problem));
    }

    /** A request the HTTP layer refused on its own (too long a URI or header, …), named by its status. */
    public static Problem refusedByHttp(int status) {
        return new Problem("urn:tickler:problem:http-" + status, "Request refused", status,
                "the HTTP layer refused the request", null);
    }

    /** The problem for an HTTP status the REST layer answered on its own; null when the API has no type for it. */
    public static Problem forStatus(int status) {
        ProblemType type = switch (status) {
            case 400 -> ProblemType.MALFORMED_JSON;
            case 401 -> ProblemType.UNAUTHORIZED;
            case 404 -> ProblemType.NOT_FOUND;
            case 405 -> ProblemType.METHOD_NOT_ALLOWED;
            case 406 -> ProblemType.NOT_ACCEPTABLE;
            case 413 -> ProblemType.PAYLOAD_TOO_LARGE;
            case 415 -> ProblemType.UNSUPPORTED_MEDIA_TYPE;
            default -> null;
        };
        return type == null ? null : Problem.of(type, detailFor(type));
    }

    /** An unexpected failure: logged under an error id, which the answer names and nothing else. */
    public static Problem internal(Throwable failure, String what) {
        String errorId = UUID.randomUUID().toString();
        LOG.errorf(failure, "%s failed, error id %s", what, errorId);
        return Problem.of(ProblemType.INTERNAL, "error id " + errorId + " names this failure in the logs");
    }

    /** The problem document as it goes on the wire. */
    public String json(Problem problem) {
        try {
            return objectMapper.writeValueAsString(problem);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a problem document could not be written", e);
        }
    }

    @ServerExceptionMapper
    public Response problem(ProblemException e) {
        return toResponse(e.problem());
    }

    /** A known key without the role a call needs (docs/contract.md#keys-and-roles); the call has not run. */
    @ServerExceptionMapper
    public Response forbidden(ForbiddenException e) {
        return toResponse(Problem.of(ProblemType.FORBIDDEN, "this API key may not make this call; admin calls, sweep"
                + " and reconcile need a key from tickler.api.operator-keys"));
    }

    /**
     * No key, or an unknown one, where the REST layer learns of it (Quarkus hands it a failed authentication); or a key
     * not looked at because its client sent too many wrong ones, which the failure says with
     * {@link #RETRY_AFTER_ATTRIBUTE}.
     */
    @ServerExceptionMapper({ UnauthorizedException.class, AuthenticationFailedException.class })
    public Response unauthorized(RuntimeException e) {
        Object retryAfter = e instanceof AuthenticationFailedException failed
                ? failed.getAttribute(RETRY_AFTER_ATTRIBUTE) : null;
        if (retryAfter != null) {
            return Response.fromResponse(toResponse(tooManyWrongKeys()))
                    .header(HttpHeaders.RETRY_AFTER, String.valueOf(retryAfter)).build();
        }
        return Response.fromResponse(toResponse(unauthorized())).header(HttpHeaders.WWW_AUTHENTICATE, "Bearer").build();
    }

    @ServerExceptionMapper
    public Response constraintViolation(ConstraintViolationException e) {
        return toResponse(problemFor(e.getConstraintViolations()));
    }

    @ServerExceptionMapper
    public Response mismatchedInput(MismatchedInputException e) {
        return toResponse(problemFor(e));
    }

    @ServerExceptionMapper
    public Response jsonProcessing(JsonProcessingException e) {
        return toResponse(problemFor(e));
    }

    /** Bean Validation's verdict as field errors named as the JSON is, in field order. */
    public static Problem problemFor(Set<? extends ConstraintViolation<?>> violations) {
        List<FieldError> errors = new ArrayList<>();
        for (ConstraintViolation<?> violation : violations) {
            errors.add(new FieldError(jsonFieldName(violation.getPropertyPath()), violation.getMessage()));
        }
        errors.sort(Comparator.comparing(FieldError::field).thenComparing(FieldError::message));
        return Problem.invalid(errors);
    }

    /**
     * JSON that does not parse, or does not fit the expected shape, as the caller's problem. Jackson tells a repeated
     * key and content after the value only in its own words (STRICT_DUPLICATE_DETECTION, FAIL_ON_TRAILING_TOKENS),
     * which have not changed since they were written; each gets a detail of its own.
     */
    public static Problem problemFor(JsonProcessingException e) {
        String message = e.getOriginalMessage() == null ? "" : e.getOriginalMessage();
        if (message.contains("FAIL_ON_TRAILING_TOKENS")) {
            return contentAfterValue(e.getLocation());
        }
        if (e instanceof MismatchedInputException mismatched) {
            return Problem.invalid(List.of(fieldError("", mismatched)));
        }
        if (message.startsWith("Duplicate field '") && e.getProcessor() instanceof JsonParser parser) {
            String key = parser.getParsingContext().getCurrentName();
            return Problem.of(ProblemType.MALFORMED_JSON, "the key \"" + key + "\" appears twice"
                    + where(e) + "; each key may appear once in an object");
        }
        return Problem.of(ProblemType.MALFORMED_JSON, "the body could not be parsed as JSON" + where(e));
    }

    /** A body that goes on after its JSON value, which ends at {@code end}. */
    public static Problem contentAfterValue(JsonLocation end) {
        return Problem.of(ProblemType.MALFORMED_JSON, "the body holds content after its JSON value" + where(end)
                + "; send exactly one JSON value");
    }

    private static String where(JsonProcessingException e) {
        return where(e.getLocation());
    }

    private static String where(JsonLocation location) {
        return location == null ? "" : " at line " + location.getLineNr() + ", column " + location.getColumnNr();
    }

    @ServerExceptionMapper
    public Response webApplication(WebApplicationException e) {
        if (e.getCause() instanceof JsonProcessingException json) {
            return jsonProcessing(json);
        }
        if (e.getCause() instanceof ProblemException refused) {
            return problem(refused); // a body reader's refusal, wrapped by the REST layer
        }
        Problem problem = forStatus(e.getResponse().getStatus());
        if (problem == null) {
            return unexpected(e);
        }
        Response response = toResponse(problem);
        String allow = e.getResponse().getHeaderString(HttpHeaders.ALLOW);
        return allow == null ? response : Response.fromResponse(response).header(HttpHeaders.ALLOW, allow).build();
    }

    @ServerExceptionMapper
    public Response unexpected(Throwable e) {
        if (DatabaseUnreachable.is(e)) {
            LOG.warnf("answered 503: the database cannot be reached (%s)",
                    TransportFailure.messageOf(TransportFailure.deepestCause(e)));
            return Response.fromResponse(toResponse(Problem.of(ProblemType.UNAVAILABLE,
                    "the database cannot be reached; try again shortly")))
                    .header(HttpHeaders.RETRY_AFTER, RETRY_AFTER_SECONDS).build();
        }
        return toResponse(internal(e, "a request"));
    }

    private static String detailFor(ProblemType type) {
        return switch (type) {
            case MALFORMED_JSON -> "the body could not be read as JSON";
            case NOT_FOUND -> "no such resource";
            case METHOD_NOT_ALLOWED -> "this resource does not support that method";
            case NOT_ACCEPTABLE -> "responses are application/json";
            case PAYLOAD_TOO_LARGE -> "the body is larger than this endpoint accepts";
            case UNSUPPORTED_MEDIA_TYPE -> "send the body as application/json";
            default -> type.title();
        };
    }

    /**
     * A value that does not fit its field, named by its path below {@code at} (the field the value was read for; empty
     * for the body).
     */
    public static FieldError fieldError(String at, MismatchedInputException e) {
        String below = jsonPath(e.getPath());
        String field = at.isEmpty() || below.isEmpty() || below.startsWith("[") ? at + below : at + "." + below;
        if (e instanceof UnrecognizedPropertyException) {
            return new FieldError(field, "unknown field");
        }
        if (field.isEmpty()) {
            return new FieldError("body", "must be a JSON object");
        }
        Class<?> target = e.getTargetType();
        String expected = target == null ? null : JSON_TYPE_NAMES.entrySet().stream()
                .filter(entry -> entry.getKey().isAssignableFrom(target))
                .map(Map.Entry::getValue)
                .findFirst()
                .orElse(null);
        return new FieldError(field, expected == null ? "has the wrong type" : "must be " + expected);
    }

    private static String jsonPath(List<JsonMappingException.Reference> path) {
        StringBuilder field = new StringBuilder();
        for (JsonMappingException.Reference reference : path) {
            if (reference.getFieldName() != null) {
                field.append(field.length() == 0 ? "" : ".").append(reference.getFieldName());
            } else if (reference.getIndex() >= 0) {
                field.append('[').append(reference.getIndex()).append(']');
            }
        }
        return field.toString();
    }

    /** Bean Validation paths carry Java names and the method and parameter; the caller knows JSON names. */
    private static String jsonFieldName(Path path) {
        StringBuilder field = new StringBuilder();
        for (Path.Node node : path) {
            if (node.getKind() == ElementKind.METHOD || node.getKind() == ElementKind.PARAMETER
                    || node.getKind() == ElementKind.BEAN || node.getName() == null) {
                continue;
            }
            field.append(field.length() == 0 ? "" : ".").append(snakeCase(node.getName()));
        }
        return field.length() == 0 ? "body" : field.toString();
    }

    private static String snakeCase(String javaName) {
        return javaName.replaceAll("([a-z0-9])([A-Z])", "$1_$2").toLowerCase();
    }
}
