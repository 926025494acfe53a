package dev.tickler.console.rest;

import java.net.URI;
import java.time.Duration;
import java.util.Optional;

import jakarta.ws.rs.CookieParam;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.NewCookie;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;

import org.jboss.resteasy.reactive.RestForm;

import io.smallrye.mutiny.Uni;
import io.vertx.core.http.HttpServerRequest;

import dev.tickler.console.ConsoleSessions;
import dev.tickler.console.ConsoleSessions.Session;
import dev.tickler.security.ApiKeys;
import dev.tickler.security.ApiKeys.ApiKey;
import dev.tickler.security.ClientAddresses;
import dev.tickler.security.WrongKeyLimit;

/**
 * Sign-in with an operator key, which travels only in this form's POST body and is never kept: the session cookie
 * names the key (docs/contract.md#operator-console). The form carries a token derived from a nonce cookie, so another
 * site cannot sign a browser in with a key of its choosing. A wrong key counts against its client's
 * {@link WrongKeyLimit}, together with the wrong bearer keys it sent /v1; past the limit, sign-ins from it are answered
 * 429 without their key being looked at.
 */
@Path("/ops")
public class SignInResource {

    private final ConsoleSessions sessions;
    private final ConsoleRequest request;
    private final ApiKeys keys;
    private final ClientAddresses clients;
    private final WrongKeyLimit limit;

    public SignInResource(ConsoleSessions sessions, ConsoleRequest request, ApiKeys keys, ClientAddresses clients,
            WrongKeyLimit limit) {
        this.sessions = sessions;
        this.request = request;
        this.keys = keys;
        this.clients = clients;
        this.limit = limit;
    }

    @GET
    @Path("/sign-in")
    public Uni<Response> form(@Context UriInfo uri, @Context HttpHeaders headers) {
        String nonce = sessions.newSignInNonce();
        NewCookie nonceCookie = ConsoleCookies.signInNonce(nonce, ConsoleCookies.overHttps(uri, headers));
        return Html.ok(Templates.signIn(signInPage(), sessions.signInFormToken(nonce), null))
                .map(page -> Response.fromResponse(page).cookie(nonceCookie).build());
    }

    @POST
    @Path("/sign-in")
    public Uni<Response> signIn(@RestForm String key, @RestForm String csrf,
            @CookieParam(ConsoleSessions.SIGN_IN_COOKIE) String nonce, @Context UriInfo uri,
            @Context HttpHeaders headers, @Context HttpServerRequest connection) {
        String client = clients.of(connection);
        Optional<Duration> wait = limit.wait(client);
        if (wait.isPresent()) {
            long seconds = WrongKeyLimit.retryAfterSeconds(wait.get());
            return Html.page(429, Templates.refused(signInPage(), "Too many wrong keys were sent from your address"
                    + " within a minute. Try again in " + seconds + (seconds == 1 ? " second." : " seconds.")))
                    .map(page -> Response.fromResponse(page).header(HttpHeaders.RETRY_AFTER, seconds).build());
        }
        if (!sessions.signInFormTokenMatches(nonce, csrf)) {
            return Html.page(403, Templates.refused(signInPage(), "This sign-in form has expired or did not come from"
                    + " this console. Open the sign-in page again."));
        }
        ApiKey found = key == null ? null : keys.find(key.strip()).orElse(null);
        if (found == null) {
            limit.wrongKey(client);
            return Html.page(401, Templates.signIn(signInPage(), csrf, "That key is not known."));
        }
        if (!sessions.isOperator(found.name())) {
            return Html.page(403, Templates.signIn(signInPage(), csrf, "That is a product key. The console needs an"
                    + " operator key (tickler.api.operator-keys)."));
        }
        Session session = sessions.open(found.name());
        boolean overHttps = ConsoleCookies.overHttps(uri, headers);
        return Uni.createFrom().item(Response.seeOther(URI.create("/ops"))
                .cookie(ConsoleCookies.session(session, sessions.lifetime(), overHttps),
                        ConsoleCookies.cleared(ConsoleSessions.SIGN_IN_COOKIE, overHttps))
                .build());
    }

    /** Removes the cookie from this browser; the signed token itself stays valid until it expires. */
    @POST
    @Path("/sign-out")
    public Uni<Response> signOut(@RestForm String csrf, @Context UriInfo uri, @Context HttpHeaders headers) {
        if (!sessions.formTokenMatches(request.session(), csrf)) {
            return FormGuard.refused(request, sessions);
        }
        return Uni.createFrom().item(Response.seeOther(URI.create(ConsoleGate.SIGN_IN))
                .cookie(ConsoleCookies.cleared(ConsoleSessions.SESSION_COOKIE,
                        ConsoleCookies.overHttps(uri, headers))).build());
    }

    private static Page signInPage() {
        return new Page("Sign in", "sign-in", null, null);
    }
}
