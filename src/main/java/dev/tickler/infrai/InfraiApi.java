package dev.tickler.infrai;

import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.quarkus.rest.client.reactive.ClientExceptionMapper;
import io.quarkus.rest.client.reactive.jackson.ClientObjectMapper;
import io.smallrye.mutiny.Uni;

import dev.tickler.http.RetryAfter;
import dev.tickler.infrai.InfraiModels.AckRequest;
import dev.tickler.infrai.InfraiModels.ConsumeRequest;
import dev.tickler.infrai.InfraiModels.ConsumeResult;
import dev.tickler.infrai.InfraiModels.NackRequest;
import dev.tickler.infrai.InfraiModels.SubscribeRequest;

/**
 * The HTTP shape of the queue API (docs/contract.md#the-queue-api) but its publish, which {@link PublishClient} makes;
 * only {@link InfraiClient} builds and talks to it. Vert.x adds no client spans to its calls.
 */
@Path("/v1")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
interface InfraiApi {

    @POST
    @Path("/queue/consume")
    Uni<InfraiEnvelope<ConsumeResult>> consume(@HeaderParam(HttpHeaders.AUTHORIZATION) String authorization,
            ConsumeRequest request);

    @POST
    @Path("/queue/ack")
    Uni<InfraiEnvelope<JsonNode>> ack(@HeaderParam(HttpHeaders.AUTHORIZATION) String authorization,
            AckRequest request);

    @POST
    @Path("/queue/nack")
    Uni<InfraiEnvelope<JsonNode>> nack(@HeaderParam(HttpHeaders.AUTHORIZATION) String authorization,
            NackRequest request);

    @POST
    @Path("/queue/push_subscribe/{queue}")
    Uni<InfraiEnvelope<JsonNode>> pushSubscribe(@HeaderParam(HttpHeaders.AUTHORIZATION) String authorization,
            @PathParam("queue") String queue, SubscribeRequest request);

    @GET
    @Path("/queue/stats/{queue}")
    Uni<InfraiEnvelope<JsonNode>> stats(@HeaderParam(HttpHeaders.AUTHORIZATION) String authorization,
            @PathParam("queue") String queue);

    @GET
    @Path("/account/usage")
    Uni<InfraiEnvelope<JsonNode>> usage(@HeaderParam(HttpHeaders.AUTHORIZATION) String authorization);

    /** Infrai may add fields to its answers; only our own API refuses unknown ones. */
    @ClientObjectMapper
    static ObjectMapper objectMapper(ObjectMapper defaultMapper) {
        return defaultMapper.copy().disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
    }

    @ClientExceptionMapper
    static InfraiException toException(Response response) {
        JsonNode body;
        try {
            body = response.readEntity(JsonNode.class);
        } catch (RuntimeException notJson) {
            body = null;
        }
        return errorOf(response.getStatus(), body, response.getHeaderString("Retry-After"));
    }

    /** An error answer as a typed exception, for the REST client's calls and {@link PublishClient}'s alike. */
    static InfraiException errorOf(int status, JsonNode body, String retryAfter) {
        JsonNode error = body == null ? null : body.get("error");
        boolean enveloped = error != null && error.hasNonNull("code");
        String code = enveloped ? error.get("code").asText() : "HTTP_" + status;
        String message = enveloped ? error.path("message").asText("") : "no error envelope in the answer";
        if (status == 429) {
            return new InfraiRateLimitedException(code, message, RetryAfter.parse(retryAfter));
        }
        return new InfraiException(status, code, message);
    }
}
