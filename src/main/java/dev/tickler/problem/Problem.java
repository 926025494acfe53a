package dev.tickler.problem;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonInclude;

import io.quarkus.runtime.annotations.RegisterForReflection;

/**
 * An RFC 9457 problem document. Written by the problem mapper through Jackson, which no REST signature names, so a
 * native image keeps it only when told. reminderId and scheduleId are extension members: the reminder or schedule a
 * repeated registration met (docs/api.md, "Retrying a registration"), null otherwise.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@RegisterForReflection
public record Problem(String type, String title, int status, String detail, List<FieldError> errors, Long reminderId,
        Long scheduleId) {

    public static final String MEDIA_TYPE = "application/problem+json";
    private static final String TYPE_PREFIX = "urn:tickler:problem:";

    public Problem(String type, String title, int status, String detail, List<FieldError> errors) {
        this(type, title, status, detail, errors, null, null);
    }

    public static Problem of(ProblemType type, String detail) {
        return of(type, detail, null, null, null);
    }

    public static Problem invalid(List<FieldError> errors) {
        String detail = errors.size() == 1
                ? errors.get(0).field() + ": " + errors.get(0).message()
                : errors.size() + " fields are not valid";
        return of(ProblemType.VALIDATION, detail, List.copyOf(errors), null, null);
    }

    /**
     * A registration repeated with a different body (docs/contract.md#registration-api): each field that differs as a
     * field error, and the reminder (or schedule) registered before.
     */
    public static Problem registrationDiffers(String detail, List<String> differing, Long reminderId,
            Long scheduleId) {
        String registered = reminderId != null ? "reminder " + reminderId : "schedule " + scheduleId;
        return of(ProblemType.REGISTRATION_DIFFERS, detail, differing.stream()
                .map(field -> new FieldError(field, "differs from " + registered + "'s")).toList(), reminderId,
                scheduleId);
    }

    /** A registration repeated after its reminder was cancelled (or its schedule ended): it will not be sent. */
    public static Problem registrationCancelled(String detail, Long reminderId, Long scheduleId) {
        return of(ProblemType.REGISTRATION_CANCELLED, detail, null, reminderId, scheduleId);
    }

    private static Problem of(ProblemType type, String detail, List<FieldError> errors, Long reminderId,
            Long scheduleId) {
        return new Problem(TYPE_PREFIX + type.slug(), type.title(), type.status(), detail, errors, reminderId,
                scheduleId);
    }
}
