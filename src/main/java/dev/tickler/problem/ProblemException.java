package dev.tickler.problem;

import java.util.List;

/** Thrown by the services for an answer that is the caller's problem, never a server fault. */
public class ProblemException extends RuntimeException {

    private final transient Problem problem;

    public ProblemException(Problem problem) {
        super(problem.detail(), null, false, false);
        this.problem = problem;
    }

    public static ProblemException notFound(String detail) {
        return new ProblemException(Problem.of(ProblemType.NOT_FOUND, detail));
    }

    /** A refusal of its own type, such as one of the conflicts (409). */
    public static ProblemException of(ProblemType type, String detail) {
        return new ProblemException(Problem.of(type, detail));
    }

    public static ProblemException invalid(List<FieldError> errors) {
        return new ProblemException(Problem.invalid(errors));
    }

    public static ProblemException invalid(String field, String message) {
        return invalid(List.of(new FieldError(field, message)));
    }

    public Problem problem() {
        return problem;
    }
}
