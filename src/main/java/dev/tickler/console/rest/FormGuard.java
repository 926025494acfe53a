package dev.tickler.console.rest;

import jakarta.ws.rs.core.Response;

import io.smallrye.mutiny.Uni;

import dev.tickler.console.ConsoleSessions;

/** The answer to a form whose token is missing or wrong: nothing was changed. */
final class FormGuard {

    private FormGuard() {
    }

    static Uni<Response> refused(ConsoleRequest request, ConsoleSessions sessions) {
        Page page = new Page("Refused", "", request.operator(), sessions.formToken(request.session()));
        return Html.page(403, Templates.refused(page, "This form did not carry this session's token (it may be from an"
                + " older session or from another site). Nothing was changed."));
    }
}
