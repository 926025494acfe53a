package dev.tickler.problem;

/** One rejected input: the JSON field (or query parameter) and what is wrong with it. */
public record FieldError(String field, String message) {
}
