package dev.tickler.web;

import java.util.List;

import dev.tickler.problem.FieldError;

/**
 * A JSON request body, read by {@link JsonBodies} (docs/api.md, "Strict input"): every unknown field, every value of
 * the wrong JSON type and every broken rule of the body comes back in one answer.
 */
public interface JsonBody {

    /**
     * What the body's own rules find wrong beyond its Bean Validation constraints; none by default. A body whose
     * resource checks it this way says so here, so that a body with unknown or mistyped fields is answered with
     * these too.
     */
    default List<FieldError> problems() {
        return List.of();
    }
}
