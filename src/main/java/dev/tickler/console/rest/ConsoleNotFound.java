package dev.tickler.console.rest;

import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;

import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

import io.smallrye.mutiny.Uni;

import dev.tickler.problem.ProblemMappers;

/**
 * A page the console does not have is an HTML page in its layout, for the browser that asked; every other unknown
 * path keeps its problem document. Signed in or not, the page says nothing but that the page does not exist.
 */
public class ConsoleNotFound {

    private final ProblemMappers problems;

    public ConsoleNotFound(ProblemMappers problems) {
        this.problems = problems;
    }

    @ServerExceptionMapper
    public Uni<Response> notFound(NotFoundException e, UriInfo uri) {
        if (!ConsoleGate.isConsole(uri.getPath())) {
            return Uni.createFrom().item(problems.webApplication(e));
        }
        return Html.page(404, Templates.refused(new Page("Not found", "", null, null),
                "The console has no page at " + uri.getPath() + "."));
    }
}
