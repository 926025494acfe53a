package dev.tickler.console.rest;

import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import io.quarkus.qute.TemplateInstance;
import io.smallrye.mutiny.Uni;

/** Renders a page off the event loop's way: Qute's non-blocking rendering, then one response. */
final class Html {

    static final MediaType TYPE = MediaType.TEXT_HTML_TYPE.withCharset("UTF-8");

    private Html() {
    }

    static Uni<Response> page(int status, TemplateInstance page) {
        return page.createUni().map(html -> Response.status(status).type(TYPE).entity(html).build());
    }

    static Uni<Response> ok(TemplateInstance page) {
        return page(200, page);
    }
}
