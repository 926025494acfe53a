package dev.tickler.web;

import java.io.IOException;
import java.util.Map;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import org.jboss.logging.Logger;

import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.quarkus.security.AuthenticationException;
import io.quarkus.security.ForbiddenException;
import io.quarkus.security.UnauthorizedException;
import io.vertx.core.http.HttpClosedException;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.http.HttpVersion;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;

import dev.tickler.http.PushPath;
import dev.tickler.problem.Problem;
import dev.tickler.problem.ProblemMappers;
import dev.tickler.problem.ProblemType;
import dev.tickler.time.VertxInternals;

/**
 * What the public port does before a request reaches a resource, and when one fails outside the REST layer: every
 * refusal is a problem document, and no log line carries a push path's token. The HTTP codec's own limits are set
 * far above these (application.properties), so that Tickler, not the codec, answers a too-long URI or header, and
 * bodies are read here with each path's own limit.
 */
@ApplicationScoped
public class HttpEdge {

    private static final Logger LOG = Logger.getLogger(HttpEdge.class);

    /** Before Quarkus's own body-size check (order -2), which would answer a bare 413. */
    private static final int ORDER = -3;
    /** After Quarkus's body-size check, before every handler that reads the body. */
    private static final int ORDER_AFTER_BODY = -1;

    static final int MAX_URI_CHARS = 8 * 1024;
    static final int MAX_HEADER_BYTES = 20 * 1024;
    /** The push receiver takes bodies up to 256 KiB. */
    static final long MAX_PUSH_BODY_BYTES = 256 * 1024;
    /** The registration API refuses bodies over 64 KiB. */
    static final long MAX_API_BODY_BYTES = 64 * 1024;
    /** A batch registration may be up to 1 MiB. */
    static final long MAX_BATCH_BODY_BYTES = 1024 * 1024;
    /** How much of a refused body is read and dropped before the connection is cut instead. */
    static final long MAX_DROPPED_BYTES = 16 * 1024 * 1024;

    private final ProblemMappers problems;
    private final Map<Long, BodyHandler> bodyReaders = Map.of(
            MAX_PUSH_BODY_BYTES, bodyReader(MAX_PUSH_BODY_BYTES),
            MAX_API_BODY_BYTES, bodyReader(MAX_API_BODY_BYTES),
            MAX_BATCH_BODY_BYTES, bodyReader(MAX_BATCH_BODY_BYTES));

    public HttpEdge(ProblemMappers problems) {
        this.problems = problems;
    }

    void install(@Observes Router router) {
        router.route().order(ORDER).handler(this::admit);
        router.route().order(ORDER_AFTER_BODY).handler(this::bodyAlwaysSet);
        router.route().order(Integer.MIN_VALUE).failureHandler(this::failed);
    }

    private void admit(RoutingContext context) {
        HttpServerRequest request = context.request();
        if (request.uri().length() > MAX_URI_CHARS) {
            refuse(context, Problem.of(ProblemType.URI_TOO_LONG, "the request URI is longer than " + MAX_URI_CHARS
                    + " characters"));
            return;
        }
        if (headerBytes(request) > MAX_HEADER_BYTES) {
            refuse(context, Problem.of(ProblemType.HEADERS_TOO_LARGE, "the request headers are larger than "
                    + MAX_HEADER_BYTES + " bytes"));
            return;
        }
        Long limit = bodyLimit(request.path());
        if (limit == null) {
            context.next();
            return;
        }
        String declared = request.getHeader(HttpHeaderNames.CONTENT_LENGTH);
        if (declared != null && exceeds(declared, limit)) {
            refuse(context, tooLarge(limit));
            return;
        }
        if (request.isEnded() || request.version() == HttpVersion.HTTP_2) {
            // nothing left to read; or HTTP/2 (an h2c upgrade, say), whose ended request the REST layer may not
            // pause: it reads the body itself then, under the declared length checked above
            context.next();
            return;
        }
        // Quarkus's request wrapper resumes a paused request as soon as a data handler is set, which is before the
        // body reader sets its end handler: an empty body's end would be lost. Pausing explicitly keeps it paused
        // until the reader resumes it with both handlers in place.
        request.pause();
        // a chunked body is counted as it arrives; past the limit the reader fails the request with 413
        bodyReaders.get(limit).handle(context);
    }

    /**
     * An empty body leaves the reader's buffer unset, and the REST layer would then wait to read a request that has
     * already ended: it gets an empty buffer instead.
     */
    private void bodyAlwaysSet(RoutingContext context) {
        if (context.body().buffer() == null && context.request().version() != HttpVersion.HTTP_2
                && bodyLimit(context.request().path()) != null) {
            VertxInternals.setEmptyBody(context);
        }
        context.next();
    }

    /** The body limit of a path this edge reads bodies for; null for paths it leaves alone. */
    static Long bodyLimit(String path) {
        if (PushPath.matches(path)) {
            return MAX_PUSH_BODY_BYTES;
        }
        if (path.equals("/v1/reminders/batch")) {
            return MAX_BATCH_BODY_BYTES;
        }
        if (isApiPath(path)) {
            return MAX_API_BODY_BYTES;
        }
        return null;
    }

    /** The API for product services and operators: everything under /v1. */
    static boolean isApiPath(String path) {
        return path.equals("/v1") || path.startsWith("/v1/");
    }

    private void failed(RoutingContext context) {
        Throwable failure = context.failure();
        if (failure instanceof AuthenticationException || failure instanceof UnauthorizedException
                || failure instanceof ForbiddenException) {
            // Quarkus security sends its challenge or its own answer for these
            context.next();
            return;
        }
        HttpServerResponse response = context.response();
        if (isConnectionGone(failure) || response.closed()) {
            LOG.debugf("client left %s before its answer: %s", PushPath.redacted(context.request().path()),
                    failure == null ? "" : failure.getMessage());
            return;
        }
        if (response.ended()) {
            return;
        }
        if (response.headWritten()) {
            response.end();
            return;
        }
        int status = context.statusCode();
        if (failure == null && status == 413) {
            Long limit = bodyLimit(context.request().path());
            refuse(context, limit == null ? Problem.of(ProblemType.PAYLOAD_TOO_LARGE, "the body is too large")
                    : tooLarge(limit));
        } else if (failure == null && status >= 400 && status < 500) {
            answer(context, ProblemMappers.refusedByHttp(status));
        } else if (status == 400) {
            answer(context, Problem.of(ProblemType.BAD_REQUEST,
                    "the request is not well-formed HTTP/1.1 (a Host header is required)"));
        } else {
            answer(context, ProblemMappers.internal(failure,
                    "request to " + PushPath.redacted(context.request().path())));
        }
    }

    private static boolean isConnectionGone(Throwable failure) {
        return failure instanceof IOException || failure instanceof HttpClosedException;
    }

    private static Problem tooLarge(long limit) {
        return Problem.of(ProblemType.PAYLOAD_TOO_LARGE, "this endpoint accepts bodies of at most " + limit + " bytes");
    }

    /**
     * A refusal before the body was read. A client that waits for 100 Continue before it sends the body is answered at
     * once, and the connection closed (it may send the body all the same, which nobody reads). Otherwise a body of a
     * size worth waiting for is read and dropped first: a client still sending when the connection closes gets a
     * reset instead of the answer. A larger one is cut off.
     */
    private void refuse(RoutingContext context, Problem problem) {
        HttpServerRequest request = context.request();
        String declared = request.getHeader(HttpHeaderNames.CONTENT_LENGTH);
        boolean hasBody = declared != null || request.headers().contains(HttpHeaderNames.TRANSFER_ENCODING);
        if (request.isEnded() || !hasBody) {
            answer(context, problem);
            return;
        }
        if (waitsForContinue(request) || declared != null && exceeds(declared, MAX_DROPPED_BYTES)) {
            HttpServerResponse response = context.response();
            response.putHeader(HttpHeaderNames.CONNECTION, "close");
            response.endHandler(ended -> request.connection().close());
            answer(context, problem);
            return;
        }
        long[] dropped = { 0 };
        request.pause();
        request.handler(chunk -> {
            dropped[0] += chunk.length();
            if (dropped[0] > MAX_DROPPED_BYTES && !context.response().ended()) {
                context.response().putHeader(HttpHeaderNames.CONNECTION, "close");
                context.response().endHandler(ended -> request.connection().close());
                answer(context, problem);
            }
        });
        request.endHandler(ended -> {
            if (!context.response().ended()) {
                answer(context, problem);
            }
        });
        request.resume();
    }

    /** RFC 9110, 10.1.1: HTTP/1.0 clients cannot wait for it, so their expectation is ignored. */
    private static boolean waitsForContinue(HttpServerRequest request) {
        String expect = request.getHeader(HttpHeaderNames.EXPECT);
        return request.version() == HttpVersion.HTTP_1_1 && expect != null
                && HttpHeaderValues.CONTINUE.contentEqualsIgnoreCase(expect.trim());
    }

    private void answer(RoutingContext context, Problem problem) {
        problems.write(context.response(), problem);
    }

    private static boolean exceeds(String contentLength, long limit) {
        try {
            return Long.parseLong(contentLength.trim()) > limit;
        } catch (NumberFormatException notANumber) {
            return false; // the codec refuses a malformed Content-Length itself
        }
    }

    private static int headerBytes(HttpServerRequest request) {
        int bytes = 0;
        for (Map.Entry<String, String> header : request.headers()) {
            bytes += header.getKey().length() + header.getValue().length() + 4;
        }
        return bytes;
    }

    private static BodyHandler bodyReader(long limit) {
        return BodyHandler.create(false).setBodyLimit(limit).setMergeFormAttributes(false);
    }
}
