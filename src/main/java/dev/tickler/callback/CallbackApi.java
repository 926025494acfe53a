package dev.tickler.callback;

import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import io.smallrye.mutiny.Uni;

/**
 * A tenant's callback endpoint, posted to at exactly its callback URL with the Standard Webhooks headers; the body is
 * sent as the very text that was signed.
 */
interface CallbackApi {

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    Uni<Response> post(@HeaderParam("webhook-id") String id, @HeaderParam("webhook-timestamp") String timestamp,
            @HeaderParam("webhook-signature") String signature, String body);
}
