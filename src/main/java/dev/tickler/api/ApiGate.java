package dev.tickler.api;

import java.util.List;

import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;

import org.jboss.resteasy.reactive.server.ServerRequestFilter;

import dev.tickler.config.TicklerConfig;
import dev.tickler.problem.Problem;
import dev.tickler.problem.ProblemMappers;
import dev.tickler.problem.ProblemType;

/** What every /v1 request passes before it reaches a resource: a known API key (SPEC §3). Bodies: {@code HttpEdge}. */
public class ApiGate {

    private static final String BEARER = "Bearer ";

    private final SecretSet apiKeys;
    private final ProblemMappers problems;

    public ApiGate(TicklerConfig config, ProblemMappers problems) {
        this.apiKeys = new SecretSet(config.api().keys().orElse(List.of()));
        this.problems = problems;
    }

    @ServerRequestFilter(preMatching = true, priority = 1000)
    public Response requireApiKey(ContainerRequestContext request) {
        if (!isApiPath(request)) {
            return null;
        }
        String authorization = request.getHeaderString(HttpHeaders.AUTHORIZATION);
        boolean bearer = authorization != null && authorization.regionMatches(true, 0, BEARER, 0, BEARER.length());
        if (bearer && apiKeys.contains(authorization.substring(BEARER.length()).trim())) {
            return null;
        }
        return Response.fromResponse(problems.toResponse(Problem.of(ProblemType.UNAUTHORIZED,
                        "send Authorization: Bearer <api key> with a key configured in tickler.api.keys")))
                .header(HttpHeaders.WWW_AUTHENTICATE, "Bearer")
                .build();
    }

    private static boolean isApiPath(ContainerRequestContext request) {
        String path = request.getUriInfo().getPath();
        return path.equals("/v1") || path.startsWith("/v1/");
    }
}
