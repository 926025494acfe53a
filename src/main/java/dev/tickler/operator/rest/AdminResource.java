package dev.tickler.operator.rest;

import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import jakarta.annotation.security.RolesAllowed;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import com.fasterxml.jackson.databind.JsonNode;

import io.netty.util.NetUtil;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;

import dev.tickler.config.TicklerConfig;
import dev.tickler.http.PushPath;
import dev.tickler.infrai.InfraiClient;
import dev.tickler.observability.ReminderStatistics;
import dev.tickler.problem.ProblemException;
import dev.tickler.security.PushTokens;
import dev.tickler.security.Roles;
import dev.tickler.web.JsonBody;

/**
 * Operator calls under /v1/admin (docs/contract.md#keys-and-roles): wire the push subscription, and compare the queue
 * with the table.
 */
@Tag(name = "Operators")
@Path("/v1/admin")
@Produces(MediaType.APPLICATION_JSON)
@RolesAllowed(Roles.OPERATOR)
public class AdminResource {

    /** The public base URL the receiver is reached at, and the path token to register. */
    @Schema(examples = """
            {"base_url": "https://tickler.example.com", "token": "push-token-1"}""")
    public record SubscriptionRequest(
            @NotBlank(message = "is required") String baseUrl,
            @NotBlank(message = "is required") String token) implements JsonBody {
    }

    public record QueueSubscription(String queue, String url,
            @Schema(implementation = Map.class, description = "The subscription as Infrai answered it")
            JsonNode subscription) {
    }

    public record QueueView(String queue, long delayedCount,
            @Schema(implementation = Map.class, description = "The queue's statistics as Infrai answered them")
            JsonNode stats) {
    }

    /** {@code account}: Infrai's usage and credit, null when it could not be read. */
    public record QueuesView(List<QueueView> queues, Map<String, Long> reminders,
            @Schema(implementation = Map.class, nullable = true, description = "Infrai's usage and credit")
            JsonNode account) {
    }

    private final InfraiClient infrai;
    private final ReminderStatistics statistics;
    private final PushTokens tokens;
    private final String signingSecret;

    public AdminResource(InfraiClient infrai, ReminderStatistics statistics, PushTokens tokens, TicklerConfig config) {
        this.infrai = infrai;
        this.statistics = statistics;
        this.tokens = tokens;
        this.signingSecret = config.push().signingSecret().orElse("");
    }

    /**
     * Registers {base_url}/q/{token}/reminders as the push subscription of every queue Tickler publishes to, with
     * the signing secret when one is configured. Infrai checks neither the URL nor offers an unsubscribe, so the
     * token is checked here: one this instance does not accept would have every push answered 404.
     */
    @POST
    @Path("/push-subscriptions")
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(operationId = "subscribePush",
            summary = "Subscribe every queue's push to this service", description = "Registers the push path"
            + " under base_url, with the token, with each queue Tickler publishes to")
    public Uni<List<QueueSubscription>> subscribe(@Valid @NotNull(message = "a JSON object is required")
            SubscriptionRequest request) {
        URI base = parseBaseUrl(request.baseUrl());
        if (!tokens.accepts(request.token())) {
            throw ProblemException.invalid("token", "is not one of tickler.push.tokens; every push to it would be refused");
        }
        String url = base.toString().replaceAll("/+$", "") + PushPath.of(request.token());
        return Multi.createFrom().iterable(infrai.queues())
                .onItem().transformToUniAndConcatenate(queue -> infrai.subscribePush(queue, url, signingSecret)
                        .map(subscription -> new QueueSubscription(queue, url, subscription)))
                .collect().asList();
    }

    /**
     * Every queue's own counts beside the table's, so a gap between delayed_count and handed_off rows shows, and the
     * account's usage and credit: publishes fail once the credit is spent.
     */
    @GET
    @Path("/queues")
    @Operation(operationId = "getQueues",
            summary = "Compare each queue's counts with the table's", description = "A gap between delayed_count"
            + " and the handed-off reminders not yet due shows messages lost or never published")
    public Uni<QueuesView> queues() {
        Uni<List<QueueView>> queues = Multi.createFrom().iterable(infrai.queues())
                .onItem().transformToUniAndConcatenate(queue -> infrai.stats(queue)
                        .map(stats -> new QueueView(queue, stats.delayedCount(), stats.raw())))
                .collect().asList();
        Uni<Map<String, Long>> reminders = statistics.countByState().map(counts -> {
            Map<String, Long> byName = new LinkedHashMap<>();
            counts.forEach((state, count) -> byName.put(state.wireName(), count));
            return byName;
        });
        Uni<JsonNode> account = infrai.usage().onFailure().recoverWithNull();
        return Uni.combine().all().unis(queues, reminders, account).asTuple()
                .map(all -> new QueuesView(all.getItem1(), all.getItem2(), all.getItem3()));
    }

    /**
     * An absolute https URL: the push token travels in the subscription's path, so the queue must not send it in clear
     * text. Plain http only where it never leaves the machine, on loopback (the local run, tests).
     */
    private static URI parseBaseUrl(String baseUrl) {
        URI uri = null;
        try {
            URI parsed = URI.create(baseUrl);
            if (parsed.isAbsolute() && ("https".equals(parsed.getScheme()) || "http".equals(parsed.getScheme()))
                    && parsed.getHost() != null && parsed.getQuery() == null && parsed.getFragment() == null) {
                uri = parsed;
            }
        } catch (IllegalArgumentException notAUri) {
            // answered below
        }
        if (uri == null) {
            throw ProblemException.invalid("base_url", "must be an absolute http(s) URL without query, e.g. https://tickler.example.com");
        }
        if ("http".equals(uri.getScheme()) && !isLoopback(uri.getHost())) {
            throw ProblemException.invalid("base_url", "must be https: the push token travels in the subscription's"
                    + " URL (http only on loopback: 127.0.0.0/8, ::1, localhost)");
        }
        return uri;
    }

    /** localhost, or an address literal on loopback; a name is never looked up (127.0.0.1.example.com is no literal). */
    static boolean isLoopback(String host) {
        if (host.equalsIgnoreCase("localhost")) {
            return true;
        }
        String literal = host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
        byte[] address = NetUtil.createByteArrayFromIpAddressString(literal);
        try {
            return address != null && InetAddress.getByAddress(address).isLoopbackAddress();
        } catch (UnknownHostException wrongLength) {
            return false;
        }
    }
}
