package dev.tickler.delivery;

import java.util.Map;

import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.jboss.logging.Logger;

import com.fasterxml.jackson.databind.ObjectMapper;

import io.opentelemetry.api.trace.Span;
import io.smallrye.mutiny.Uni;

import dev.tickler.config.TicklerConfig;
import dev.tickler.delivery.DeliveryIntake.Acceptance;
import dev.tickler.http.PushPath;
import dev.tickler.problem.Problem;
import dev.tickler.problem.ProblemMappers;
import dev.tickler.problem.ProblemType;
import dev.tickler.publish.ReminderMessage;
import dev.tickler.security.PushTokens;
import dev.tickler.tracing.ReminderTracing;

/**
 * The push subscription's endpoint (docs/contract.md#push-receiver): one atomic claim, then 200 before any notifier
 * call. The path token is a secret; it is never logged, and a wrong one gets a bare 404.
 */
@Path(PushPath.TEMPLATE)
public class PushResource {

    private static final Logger LOG = Logger.getLogger(PushResource.class);

    private final PushTokens tokens;
    private final PushSignature signature;
    private final String signatureHeader;
    private final DeliveryIntake delivery;
    private final PushMessages messages;
    private final ProblemMappers problems;
    private final ReminderTracing tracing;

    public PushResource(TicklerConfig config, PushTokens tokens, DeliveryIntake delivery, ObjectMapper mapper,
            ProblemMappers problems, ReminderTracing tracing) {
        this.tokens = tokens;
        this.signature = config.push().signingSecret().filter(secret -> !secret.isEmpty())
                .map(PushSignature::new).orElse(null);
        this.signatureHeader = config.push().signatureHeader();
        this.delivery = delivery;
        this.messages = new PushMessages(mapper);
        this.problems = problems;
        this.tracing = tracing;
    }

    @POST
    @Consumes(MediaType.WILDCARD)
    @Produces(MediaType.APPLICATION_JSON)
    @Operation(hidden = true)
    public Uni<Response> receive(@PathParam("token") String token, @Context HttpHeaders headers, byte[] body) {
        if (!tokens.accepts(token)) {
            return Uni.createFrom().item(Response.status(Response.Status.NOT_FOUND).build());
        }
        if (signature != null && !signature.matches(body, headers.getHeaderString(signatureHeader))) {
            return Uni.createFrom().item(problems.toResponse(Problem.of(ProblemType.BAD_SIGNATURE,
                    "the body's HMAC-SHA256 in " + signatureHeader + " is missing or does not match")));
        }
        PushMessages.Incoming incoming;
        try {
            incoming = messages.parse(body);
        } catch (PushMessages.Unreadable e) {
            return Uni.createFrom().item(problems.toResponse(Problem.of(ProblemType.UNREADABLE_MESSAGE, e.getMessage())));
        }
        ReminderMessage message = incoming.message();
        // the push's server span continues the trace the message carries; see ReminderTracing#startPush
        io.opentelemetry.context.Context carried = tracing.extract(message.traceparent(), message.tracestate());
        Span span = tracing.startPush(carried, message.reminderId(), message.version());
        Uni<Response> answered = delivery.accept(message, incoming.deliveryCount(), Transport.PUSH,
                        tracing.within(carried, span))
                .map(this::answer)
                .onFailure().recoverWithItem(failure -> {
                    LOG.warnf("push for reminder %d not claimed, Postgres did not answer: %s", message.reminderId(),
                            failure.getMessage());
                    return unavailable("the database cannot be reached; deliver the message again");
                });
        if (tracing.enabled()) {
            answered = answered.onTermination().invoke((response, failure, cancelled) ->
                    tracing.endPush(span, response != null ? response.getStatus() : null));
        }
        return answered;
    }

    private Response answer(Acceptance acceptance) {
        if (acceptance instanceof Acceptance.Claimed) {
            return Response.ok(Map.of("result", "claimed")).build();
        }
        if (acceptance instanceof Acceptance.NotClaimed ignored) {
            return Response.ok(Map.of("result", "ignored", "reason", ignored.reason().label())).build();
        }
        return unavailable(((Acceptance.Refused) acceptance).reason());
    }

    private Response unavailable(String detail) {
        return Response.fromResponse(problems.toResponse(Problem.of(ProblemType.UNAVAILABLE, detail)))
                .header("Retry-After", ProblemMappers.RETRY_AFTER_SECONDS)
                .build();
    }
}
