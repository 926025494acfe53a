package dev.tickler.problem;

import io.quarkus.runtime.annotations.RegisterForReflection;

/**
 * One rejected input: the JSON field (or query parameter) and what is wrong with it. Written inside problem documents
 * through Jackson, which no REST signature names, so a native image keeps it only when told.
 */
@RegisterForReflection
public record FieldError(String field, String message) {
}
