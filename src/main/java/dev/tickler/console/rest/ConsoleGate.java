package dev.tickler.console.rest;

import java.net.URI;

import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.core.Cookie;
import jakarta.ws.rs.core.Response;

import org.jboss.resteasy.reactive.server.ServerRequestFilter;
import org.jboss.resteasy.reactive.server.ServerResponseFilter;

import dev.tickler.console.ConsoleSessions;

/**
 * Every console page but sign-in needs a valid session; without one the browser is sent to sign in
 * (docs/contract.md#operator-console). Checked by path, so a new page cannot forget it.
 */
public class ConsoleGate {

    static final String SIGN_IN = "/ops/sign-in";

    /** No script, nothing from another host, no framing, no caching of operator pages, no referrer. */
    private static final String CONTENT_SECURITY_POLICY = "default-src 'none'; style-src 'unsafe-inline';"
            + " img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

    private final ConsoleSessions sessions;
    private final ConsoleRequest request;

    public ConsoleGate(ConsoleSessions sessions, ConsoleRequest request) {
        this.sessions = sessions;
        this.request = request;
    }

    /** The path as the resources are matched against it, so a spelling such as /v1/../ops cannot pass by. */
    @ServerRequestFilter
    public Response requireSession(ContainerRequestContext context) {
        String path = context.getUriInfo().getPath();
        if (!isConsole(path) || path.equals(SIGN_IN)) {
            return null;
        }
        Cookie cookie = context.getCookies().get(ConsoleSessions.SESSION_COOKIE);
        var session = sessions.verify(cookie == null ? null : cookie.getValue());
        if (session.isEmpty()) {
            return Response.seeOther(URI.create(SIGN_IN)).build();
        }
        request.signedIn(session.get());
        return null;
    }

    @ServerResponseFilter
    public void protectPages(ContainerRequestContext context, ContainerResponseContext response) {
        if (isConsole(context.getUriInfo().getPath())) {
            response.getHeaders().putSingle("Content-Security-Policy", CONTENT_SECURITY_POLICY);
            response.getHeaders().putSingle("X-Content-Type-Options", "nosniff");
            response.getHeaders().putSingle("Referrer-Policy", "no-referrer");
            response.getHeaders().putSingle("Cache-Control", "no-store");
        }
    }

    static boolean isConsole(String path) {
        return path.equals("/ops") || path.startsWith("/ops/");
    }
}
