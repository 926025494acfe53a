package dev.tickler.web;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.validation.Validator;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.exc.InputCoercionException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.introspect.BeanPropertyDefinition;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.tickler.problem.FieldError;
import dev.tickler.problem.ProblemException;
import dev.tickler.problem.ProblemMappers;

/**
 * Reads JSON request bodies (docs/api.md, "Strict input"). A body is one JSON value (checked here) with each key once
 * (the mapper's rule, config.StrictJsonCustomizer). One that does not bind is read again field by field, so that the
 * answer names every unknown field and every value of the wrong type, and beside them what the body's constraints
 * say of the fields that did fit: a client learns all that is wrong with a body in one round trip, not one error at
 * a time.
 */
@ApplicationScoped
public class JsonBodies {

    private final ObjectMapper mapper;
    /** Reads one value and stops, so that what follows it is named as such here even when it is no JSON at all. */
    private final ObjectReader valueReader;
    private final Validator validator;
    /** The fields each body type binds, by JSON name, with their types; read once per type. */
    private final Map<JavaType, Map<String, JavaType>> fieldsByType = new ConcurrentHashMap<>();

    public JsonBodies(ObjectMapper mapper, Validator validator) {
        this.mapper = mapper;
        this.valueReader = mapper.reader().without(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
        this.validator = validator;
    }

    /**
     * The body as a tree; null when there is none, or it is JSON null. Anything after the value, even what is no JSON
     * at all, is content after it.
     */
    public JsonNode parse(InputStream body) throws IOException {
        try (JsonParser parser = mapper.createParser(body)) {
            JsonNode tree = valueReader.readTree(parser);
            if (tree == null || tree.isMissingNode()) {
                return null;
            }
            JsonLocation end = parser.currentLocation();
            try {
                if (parser.nextToken() != null) {
                    throw new ProblemException(ProblemMappers.contentAfterValue(end));
                }
            } catch (JsonParseException notJson) {
                throw new ProblemException(ProblemMappers.contentAfterValue(end));
            }
            return tree.isNull() ? null : tree;
        }
    }

    /**
     * The body bound to {@code type}, unchecked beyond its shape: its constraints are the caller's to check, as for
     * any body that binds. One that does not bind is a 400 naming every field that is unknown or of the wrong type,
     * and every constraint the rest breaks.
     */
    public <T> T bind(JsonNode body, Class<T> type) {
        JsonProcessingException failure;
        try {
            return mapper.treeToValue(body, type);
        } catch (JsonProcessingException e) {
            failure = e;
        }
        List<FieldError> errors = new ArrayList<>();
        JsonNode fitting = fitting(body, mapper.constructType(type), "", errors);
        if (errors.isEmpty()) {
            // not a matter of shape (a value its type refuses to be made of): as Jackson says it
            throw new ProblemException(ProblemMappers.problemFor(failure));
        }
        if (fitting != null) {
            errors.addAll(brokenConstraints(fitting, type, errors));
        }
        errors.sort(Comparator.comparing(FieldError::field).thenComparing(FieldError::message));
        throw ProblemException.invalid(errors);
    }

    /**
     * The part of {@code node} that fits {@code type}: unknown fields and values of the wrong type are left out (an
     * array's items become null, so that the others keep their places) and added to {@code errors}, named by their
     * path from the body. Null when nothing of it fits.
     */
    private JsonNode fitting(JsonNode node, JavaType type, String at, List<FieldError> errors) {
        if (node.isNull()) {
            return node;
        }
        if (isObjectOfFields(type)) {
            if (!node.isObject()) {
                errors.add(new FieldError(at.isEmpty() ? "body" : at, "must be a JSON object"));
                return null;
            }
            Map<String, JavaType> fields = fieldsOf(type);
            ObjectNode kept = mapper.createObjectNode();
            for (Map.Entry<String, JsonNode> field : node.properties()) {
                String name = field.getKey();
                String path = at.isEmpty() ? name : at + "." + name;
                JavaType fieldType = fields.get(name);
                if (fieldType == null) {
                    errors.add(new FieldError(path, notAField(type.getRawClass(), name)));
                    continue;
                }
                JsonNode value = fitting(field.getValue(), fieldType, path, errors);
                if (value != null) {
                    kept.set(name, value);
                }
            }
            return kept;
        }
        if (type.isCollectionLikeType() || type.isArrayType()) {
            if (!node.isArray()) {
                errors.add(new FieldError(at, "must be an array"));
                return null;
            }
            ArrayNode kept = mapper.createArrayNode();
            for (int i = 0; i < node.size(); i++) {
                JsonNode item = fitting(node.get(i), type.getContentType(), at + "[" + i + "]", errors);
                kept.add(item == null ? NullNode.getInstance() : item);
            }
            return kept;
        }
        try {
            mapper.readerFor(type).readValue(node);
            return node;
        } catch (MismatchedInputException e) {
            errors.add(ProblemMappers.fieldError(at, e));
            return null;
        } catch (InputCoercionException e) {
            errors.add(new FieldError(at, "is out of range"));
            return null;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Request bodies and the objects inside them are records; everything else is a value read as a whole. */
    private static boolean isObjectOfFields(JavaType type) {
        return type.getRawClass().isRecord();
    }

    private Map<String, JavaType> fieldsOf(JavaType type) {
        return fieldsByType.computeIfAbsent(type, unread -> {
            Map<String, JavaType> fields = new HashMap<>();
            for (BeanPropertyDefinition property : mapper.getDeserializationConfig().introspect(unread)
                    .findProperties()) {
                if (property.couldDeserialize()) {
                    fields.put(property.getName(), property.getPrimaryType());
                }
            }
            return Map.copyOf(fields);
        });
    }

    /** An unknown field, or one of the creating body's that a change cannot make ({@link FixedFields}). */
    private String notAField(Class<?> owner, String name) {
        FixedFields fixed = owner.getAnnotation(FixedFields.class);
        return fixed != null && fieldsOf(mapper.constructType(fixed.of())).containsKey(name)
                ? "cannot be changed; " + fixed.advice()
                : "unknown field";
    }

    /**
     * What the body's constraints, and its own rules ({@link JsonBody#problems}), say of the fields that fit; a field
     * already named in {@code found}, or one inside it, is not named again (a value left out for its type is not also
     * "required").
     */
    private <T> List<FieldError> brokenConstraints(JsonNode fitting, Class<T> type, List<FieldError> found) {
        T partial;
        try {
            partial = mapper.treeToValue(fitting, type);
        } catch (JsonProcessingException e) {
            return List.of();
        }
        List<FieldError> broken = new ArrayList<>();
        var violations = validator.validate(partial);
        if (!violations.isEmpty()) {
            broken.addAll(ProblemMappers.problemFor(violations).errors());
        }
        if (partial instanceof JsonBody body) {
            broken.addAll(body.problems());
        }
        return broken.stream()
                .filter(error -> found.stream().noneMatch(named -> isWithin(error.field(), named.field()))).toList();
    }

    private static boolean isWithin(String field, String named) {
        return field.equals(named) || field.startsWith(named + ".") || field.startsWith(named + "[");
    }
}
