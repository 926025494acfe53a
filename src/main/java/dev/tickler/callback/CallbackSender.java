package dev.tickler.callback;

import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.util.TypeLiteral;
import jakarta.ws.rs.core.Response;

import org.eclipse.microprofile.faulttolerance.exceptions.TimeoutException;

import com.standardwebhooks.Webhook;
import com.standardwebhooks.exceptions.WebhookSigningException;

import io.quarkus.rest.client.reactive.QuarkusRestClientBuilder;
import io.smallrye.faulttolerance.api.TypedGuard;
import io.smallrye.mutiny.Uni;

import org.jboss.resteasy.reactive.client.api.QuarkusRestClientProperties;

import dev.tickler.config.TicklerConfig;
import dev.tickler.http.TransportFailure;
import dev.tickler.security.TenantCallbacks;
import dev.tickler.tracing.UntracedHttpClientOptions;

/**
 * The one way to the tenants' callback endpoints (docs/api.md, "Delivery callbacks"): each try is signed by the Standard
 * Webhooks project's own library, bounded by tickler.callbacks.timeout, and turned into a {@link TryOutcome}; callers
 * never see HTTP. Its clients are its own, apart from the notifier's, so a callback endpoint that hangs holds only
 * callback connections.
 */
@ApplicationScoped
public class CallbackSender {

    private record Target(CallbackApi api, Webhook signer) {
    }

    private final Map<String, Target> targets = new TreeMap<>();
    private final TypedGuard<Uni<Response>> guard;
    private final Duration timeout;

    public CallbackSender(TenantCallbacks callbacks, TicklerConfig config) {
        this.timeout = config.callbacks().timeout();
        for (String tenant : callbacks.tenants()) {
            TenantCallbacks.Endpoint endpoint = callbacks.of(tenant).orElseThrow();
            CallbackApi api = QuarkusRestClientBuilder.newBuilder()
                    .baseUri(endpoint.url())
                    .register(UntracedHttpClientOptions.class)
                    // statuses are outcomes to classify here, not exceptions
                    .property("microprofile.rest.client.disable.default.mapper", true)
                    .property(QuarkusRestClientProperties.CONNECTION_POOL_SIZE, config.callbacks().concurrency())
                    .build(CallbackApi.class);
            targets.put(tenant, new Target(api, new Webhook(endpoint.secret())));
        }
        this.guard = TypedGuard.create(new TypeLiteral<Uni<Response>>() {
                })
                .withTimeout().duration(timeout.toMillis(), ChronoUnit.MILLIS).done()
                .build();
    }

    /**
     * POSTs the body to the tenant's endpoint with the Standard Webhooks headers: {@code webhook-id} (the same on every
     * try of one event), {@code webhook-timestamp} (this try's, in seconds) and {@code webhook-signature}.
     */
    Uni<TryOutcome> send(String tenant, String webhookId, long timestampSeconds, String body) {
        Optional<Target> target = Optional.ofNullable(targets.get(tenant));
        if (target.isEmpty()) {
            return Uni.createFrom().item(new TryOutcome(TryOutcome.Kind.ERROR, null,
                    "tickler.tenants.\"" + tenant + "\".callback-url is not set on this instance"));
        }
        String signature = sign(target.get().signer(), webhookId, timestampSeconds, body);
        return guard.get(() -> target.get().api().post(webhookId, Long.toString(timestampSeconds), signature, body))
                .map(CallbackSender::classify)
                .onFailure().recoverWithItem(this::classifyFailure);
    }

    /** The {@code v1,<base64>} signature of {@code id.timestamp.body}, keyed with the secret's decoded bytes. */
    static String sign(Webhook signer, String webhookId, long timestampSeconds, String body) {
        try {
            return signer.sign(webhookId, timestampSeconds, body);
        } catch (WebhookSigningException e) {
            throw new IllegalStateException("HMAC-SHA256 is part of every Java runtime", e);
        }
    }

    private static TryOutcome classify(Response response) {
        int status = response.getStatus();
        response.close();
        return status >= 200 && status < 300 ? new TryOutcome(TryOutcome.Kind.DELIVERED, status, null)
                : new TryOutcome(TryOutcome.Kind.REJECTED, status, "HTTP " + status);
    }

    private TryOutcome classifyFailure(Throwable failure) {
        if (failure instanceof TimeoutException) {
            return new TryOutcome(TryOutcome.Kind.TIMEOUT, null, "no answer within " + timeout);
        }
        return new TryOutcome(TryOutcome.Kind.ERROR, null, "connection failed: " + TransportFailure.describe(failure));
    }
}
