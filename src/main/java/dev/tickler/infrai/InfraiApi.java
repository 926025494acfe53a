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
import dev.tickler.infrai.InfraiModels.PublishRequest;
import dev.tickler.infrai.InfraiModels.PublishResult;
import dev.tickler.infrai.InfraiModels.SubscribeRequest;

/**
 * The HTTP shape of the queue API (docs/contract.md#the-queue-api); only {@link InfraiClient} builds and talks to it.
 * Its calls are traced as publish spans by the publisher, not by Vert.x.
 */
@Path("/v1")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
interface InfraiApi {

    @POST
    @Path("/queue/publish")
    Uni<InfraiEnvelope<PublishResult>> publish(@HeaderParam(HttpHeaders.AUTHORIZATION) String authorization,
            PublishRequest request);

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
        InfraiEnvelope.Error error = readError(response);
        String code = error == null ? "HTTP_" + response.getStatus() : error.code();
        String message = error == null ? "no error envelope in the answer" : error.message();
        if (response.getStatus() == 429) {
            return new InfraiRateLimitedException(code, message, RetryAfter.parse(response.getHeaderString("Retry-After")));
        }
        return new InfraiException(response.getStatus(), code, message);
    }

    private static InfraiEnvelope.Error readError(Response response) {
        try {
            JsonNode body = response.readEntity(JsonNode.class);
            JsonNode error = body == null ? null : body.get("error");
            if (error == null || !error.hasNonNull("code")) {
                return null;
            }
            return new InfraiEnvelope.Error(error.get("code").asText(), error.path("message").asText(""));
        } catch (RuntimeException notJson) {
            return null;
        }
    }
}
