package dev.tickler.web;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import jakarta.ws.rs.HttpMethod;
import jakarta.ws.rs.NotAllowedException;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;

import org.jboss.resteasy.reactive.server.ServerExceptionMapper;
import org.jboss.resteasy.reactive.server.core.CurrentRequestManager;
import org.jboss.resteasy.reactive.server.core.Deployment;
import org.jboss.resteasy.reactive.server.core.ResteasyReactiveRequestContext;
import org.jboss.resteasy.reactive.server.handlers.ClassRoutingHandler;
import org.jboss.resteasy.reactive.server.handlers.RestInitialHandler;
import org.jboss.resteasy.reactive.server.mapping.RequestMapper;
import org.jboss.resteasy.reactive.server.mapping.RuntimeResource;
import org.jboss.resteasy.reactive.server.spi.ServerRestHandler;

import dev.tickler.problem.ProblemMappers;

/**
 * A 405 names the methods its path does take in {@code Allow} (RFC 9110, 15.5.6), which the REST layer leaves out.
 * They are read from the REST layer's own routing tables, the ones that decided on the 405, so they cannot drift
 * from the resources; those tables are not its public API, and this is the one place that reads them.
 */
public class MethodNotAllowed {

    private final ProblemMappers problems;

    public MethodNotAllowed(ProblemMappers problems) {
        this.problems = problems;
    }

    @ServerExceptionMapper
    public Response notAllowed(NotAllowedException e) {
        Response answer = problems.toResponse(ProblemMappers.forStatus(405));
        ResteasyReactiveRequestContext request = CurrentRequestManager.get();
        List<String> allowed = request == null ? List.of()
                : allowedMethods(request.getDeployment(), request.getPathWithoutPrefix());
        return allowed.isEmpty() ? answer
                : Response.fromResponse(answer).header(HttpHeaders.ALLOW, String.join(", ", allowed)).build();
    }

    /** The methods a request to {@code path} is routed for, HEAD with GET, as the REST layer routes them. */
    static List<String> allowedMethods(Deployment deployment, String path) {
        RequestMapper.RequestMatch<RestInitialHandler.InitialMatch> resource =
                new RequestMapper<>(deployment.getClassMappers()).map(path);
        List<String> methods = new ArrayList<>();
        if (resource == null) {
            return methods;
        }
        String remaining = resource.remaining.isEmpty() ? "/" : resource.remaining;
        for (ServerRestHandler handler : resource.value.handlers) {
            if (handler instanceof ClassRoutingHandler routing) {
                for (Map.Entry<String, RequestMapper<RuntimeResource>> byMethod : routing.getMappers().entrySet()) {
                    if (byMethod.getKey() != null && byMethod.getValue().map(remaining) != null) {
                        methods.add(byMethod.getKey());
                    }
                }
            }
        }
        if (methods.contains(HttpMethod.GET)) {
            methods.add(HttpMethod.HEAD);
        }
        methods.sort(null);
        return methods;
    }
}
