package dev.tickler.security;

import java.util.Map;
import java.util.Set;

import jakarta.enterprise.context.ApplicationScoped;

import io.netty.handler.codec.http.HttpHeaderNames;
import io.quarkus.security.AuthenticationFailedException;
import io.quarkus.security.credential.TokenCredential;
import io.quarkus.security.identity.IdentityProviderManager;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.security.identity.request.AuthenticationRequest;
import io.quarkus.security.identity.request.TokenAuthenticationRequest;
import io.quarkus.vertx.http.runtime.security.ChallengeData;
import io.quarkus.vertx.http.runtime.security.HttpAuthenticationMechanism;
import io.quarkus.vertx.http.runtime.security.HttpCredentialTransport;
import io.quarkus.vertx.http.runtime.security.HttpSecurityUtils;
import io.smallrye.mutiny.Uni;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.RoutingContext;

import dev.tickler.problem.Problem;
import dev.tickler.problem.ProblemMappers;

/**
 * {@code Authorization: Bearer <api key>} (docs/contract.md#keys-and-roles). A request without a bearer credential
 * stays anonymous and is refused where a key is required; an unknown key fails, and counts against its client's
 * {@link WrongKeyLimit}, past which its keys are answered 429 unread. The challenge carries a problem document, where
 * Quarkus's default one has an empty body.
 */
@ApplicationScoped
public class BearerKeyMechanism implements HttpAuthenticationMechanism {

    private static final String SCHEME = "Bearer";
    private static final String SCHEME_AND_SPACE = SCHEME + " ";
    /** Set on a request whose client is over the limit: the seconds it is told to wait. */
    private static final String RETRY_AFTER = BearerKeyMechanism.class.getName() + ".retry-after";

    private final String unauthorizedBody;
    private final String tooManyBody;
    private final ClientAddresses clients;
    private final WrongKeyLimit limit;

    public BearerKeyMechanism(ProblemMappers problems, ClientAddresses clients, WrongKeyLimit limit) {
        this.unauthorizedBody = problems.json(ProblemMappers.unauthorized());
        this.tooManyBody = problems.json(ProblemMappers.tooManyWrongKeys());
        this.clients = clients;
        this.limit = limit;
    }

    @Override
    public Uni<SecurityIdentity> authenticate(RoutingContext context, IdentityProviderManager identities) {
        String authorization = context.request().getHeader(HttpHeaderNames.AUTHORIZATION);
        if (authorization == null
                || !authorization.regionMatches(true, 0, SCHEME_AND_SPACE, 0, SCHEME_AND_SPACE.length())) {
            return Uni.createFrom().nullItem();
        }
        String client = clients.of(context.request());
        var wait = limit.wait(client);
        if (wait.isPresent()) {
            long seconds = WrongKeyLimit.retryAfterSeconds(wait.get());
            // the HTTP layer's challenge reads the routing context, the REST layer's mapper the failure
            context.put(RETRY_AFTER, seconds);
            return Uni.createFrom().failure(new AuthenticationFailedException("too many wrong keys",
                    Map.of(ProblemMappers.RETRY_AFTER_ATTRIBUTE, seconds)));
        }
        String key = authorization.substring(SCHEME_AND_SPACE.length()).strip();
        AuthenticationRequest request = new TokenAuthenticationRequest(new TokenCredential(key, "bearer"));
        return identities.authenticate(HttpSecurityUtils.setRoutingContextAttribute(request, context))
                .onFailure(AuthenticationFailedException.class).invoke(() -> limit.wrongKey(client));
    }

    @Override
    public Uni<ChallengeData> getChallenge(RoutingContext context) {
        Long retryAfter = context.get(RETRY_AFTER);
        return Uni.createFrom().item(retryAfter != null
                ? new ChallengeData(429, HttpHeaderNames.RETRY_AFTER, String.valueOf(retryAfter))
                : new ChallengeData(401, HttpHeaderNames.WWW_AUTHENTICATE, SCHEME));
    }

    /** Sends the whole answer, body included; Quarkus leaves a response that a challenge has ended alone. */
    @Override
    public Uni<Boolean> sendChallenge(RoutingContext context) {
        HttpServerResponse response = context.response();
        Long retryAfter = context.get(RETRY_AFTER);
        if (!response.headWritten() && retryAfter != null) {
            response.setStatusCode(429)
                    .putHeader(HttpHeaderNames.RETRY_AFTER, String.valueOf(retryAfter))
                    .putHeader(HttpHeaderNames.CONTENT_TYPE, Problem.MEDIA_TYPE)
                    .end(tooManyBody);
        } else if (!response.headWritten()) {
            response.setStatusCode(401)
                    .putHeader(HttpHeaderNames.WWW_AUTHENTICATE, SCHEME)
                    .putHeader(HttpHeaderNames.CONTENT_TYPE, Problem.MEDIA_TYPE)
                    .end(unauthorizedBody);
        }
        return Uni.createFrom().item(true);
    }

    @Override
    public Set<Class<? extends AuthenticationRequest>> getCredentialTypes() {
        return Set.of(TokenAuthenticationRequest.class);
    }

    @Override
    public Uni<HttpCredentialTransport> getCredentialTransport(RoutingContext context) {
        return Uni.createFrom().item(new HttpCredentialTransport(HttpCredentialTransport.Type.AUTHORIZATION, "bearer"));
    }
}
