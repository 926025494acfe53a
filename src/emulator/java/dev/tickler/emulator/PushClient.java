package dev.tickler.emulator;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.HexFormat;
import java.util.List;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/** Posts deliveries to push subscribers. */
final class PushClient {

    private static final String SIGNATURE_HEADER = "X-Infrai-Signature";

    private final HttpClient client;
    private final long timeoutMillis;
    private final boolean bareBody;

    PushClient(Vertx vertx, EmulatorOptions options) {
        client = vertx.createHttpClient(new HttpClientOptions(),
                new PoolOptions().setHttp1MaxSize(options.maxOutstandingPushes()));
        timeoutMillis = options.pushTimeout().toMillis();
        bareBody = options.bareBodyPush();
    }

    /** Completes with true when every subscription answered 2xx; never fails. */
    Future<Boolean> push(PushAttempt attempt) {
        Delivery delivery = attempt.delivery();
        Buffer body = (bareBody ? delivery.payload() : delivery.toPushEnvelope()).toBuffer();
        List<Future<Boolean>> posts = attempt.targets().stream().map(target -> post(target, body)).toList();
        return Future.all(posts).map(all -> posts.stream().allMatch(Future::result));
    }

    private Future<Boolean> post(Subscription target, Buffer body) {
        RequestOptions request;
        try {
            request = new RequestOptions()
                    .setMethod(HttpMethod.POST)
                    .setAbsoluteURI(target.url())
                    .setConnectTimeout(timeoutMillis)
                    .setIdleTimeout(timeoutMillis)
                    .putHeader(HttpHeaders.CONTENT_TYPE, "application/json");
        } catch (RuntimeException invalidUrl) {
            // subscribe does not check the URL, so a bad one shows up here, as a failed push
            return Future.succeededFuture(false);
        }
        if (!target.secret().isEmpty()) {
            request.putHeader(SIGNATURE_HEADER, "sha256=" + hmacSha256Hex(target.secret(), body));
        }
        return client.request(request)
                .compose(outgoing -> outgoing.send(body))
                .compose(response -> response.body().map(ignored -> response.statusCode() / 100 == 2))
                .otherwise(false);
    }

    private static String hmacSha256Hex(String secret, Buffer body) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            return HexFormat.of().formatHex(mac.doFinal(body.getBytes()));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is not available", e);
        }
    }
}
