package dev.tickler.problem;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonInclude;

import io.quarkus.runtime.annotations.RegisterForReflection;

/**
 * An RFC 9457 problem document. Written by the problem mapper through Jackson, which no REST signature names, so a
 * native image keeps it only when told.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@RegisterForReflection
public record Problem(String type, String title, int status, String detail, List<FieldError> errors) {

    public static final String MEDIA_TYPE = "application/problem+json";
    private static final String TYPE_PREFIX = "urn:tickler:problem:";

    public static Problem of(ProblemType type, String detail) {
        return new Problem(TYPE_PREFIX + type.slug(), type.title(), type.status(), detail, null);
    }

    public static Problem invalid(List<FieldError> errors) {
        String detail = errors.size() == 1
                ? errors.get(0).field() + ": " + errors.get(0).message()
                : errors.size() + " fields are not valid";
        return new Problem(TYPE_PREFIX + ProblemType.VALIDATION.slug(), ProblemType.VALIDATION.title(),
                ProblemType.VALIDATION.status(), detail, List.copyOf(errors));
    }
}
