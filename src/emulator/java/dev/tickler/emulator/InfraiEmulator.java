package dev.tickler.emulator;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * An HTTP emulator of the Infrai managed delayed queue, listening on 127.0.0.1, over TLS when its options say so.
 *
 * <p>It runs on a Vert.x instance of its own. Queue state is guarded by one lock, so the inspection and fault
 * injection methods may be called from any thread while requests are served. Do not call them from this
 * emulator's own event loop threads: {@link #start} and {@link #close} block.
 */
public final class InfraiEmulator implements AutoCloseable {

    private static final String HOST = "127.0.0.1";
    private static final int STANDALONE_DEFAULT_PORT = 8089;
    private static final long PUSH_TICK_MILLIS = 20;

    private final Vertx vertx;
    private final QueueBroker broker;
    private final PublishFaults publishFaults = new PublishFaults();
    private final PushClient pushClient;
    private final ApiRequestHandler api;
    private final HttpServer server;
    private final String scheme;
    private final AtomicBoolean closed = new AtomicBoolean();

    private InfraiEmulator(Vertx vertx, EmulatorOptions options) {
        this.vertx = vertx;
        broker = new QueueBroker(options);
        pushClient = new PushClient(vertx, options);
        api = new ApiRequestHandler(vertx, broker, publishFaults, options.apiKey(), this::dispatchPushes);
        HttpServerOptions serving = options.tls() == null ? new HttpServerOptions()
                : new HttpServerOptions().setSsl(true).setKeyCertOptions(options.tls());
        scheme = options.tls() == null ? "http" : "https";
        server = await(vertx.createHttpServer(serving).requestHandler(api).listen(options.port(), HOST));
        vertx.setPeriodic(PUSH_TICK_MILLIS, timerId -> dispatchPushes());
    }

    /** Starts an emulator and returns once it is listening. */
    public static InfraiEmulator start(EmulatorOptions options) {
        Vertx vertx = Vertx.vertx();
        try {
            return new InfraiEmulator(vertx, options);
        } catch (RuntimeException e) {
            await(vertx.close());
            throw e;
        }
    }

    public int port() {
        return server.actualPort();
    }

    public String baseUrl() {
        return scheme + "://" + HOST + ":" + port();
    }

    /** Stops the server, the push client, the timers and the Vert.x instance. */
    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            await(vertx.close());
        }
    }

    public QueueStats stats(String queue) {
        return broker.stats(queue);
    }

    /** Every message created by publish calls to the queue, oldest first; deduplicated calls create none. */
    public List<PublishedMessage> published(String queue) {
        return broker.published(queue);
    }

    /** API calls of any kind received, whatever their answer. */
    public long requests() {
        return api.requests();
    }

    /** Publish calls received, whatever their answer. */
    public int publishRequests() {
        return (int) api.publishRequests();
    }

    /** The next {@code count} authorised publish calls answer this error and create nothing. */
    public void failNextPublishes(int count, int httpStatus, String errorCode) {
        publishFaults.failNext(count, new ApiError(httpStatus, errorCode, "injected failure", null));
    }

    /** The next {@code count} authorised publish calls answer 429 RATE_LIMITED with a Retry-After header. */
    public void rateLimitNextPublishes(int count, int retryAfterSeconds) {
        publishFaults.failNext(count, ApiError.rateLimited(retryAfterSeconds));
    }

    /** Delays every publish answer by this much; the message itself is created when the call arrives. */
    public void publishLatency(Duration latency) {
        publishFaults.latency(latency);
    }

    /** The same as a push_subscribe call: due messages of the queue are pushed to the URL, signed when a secret is given. */
    public void subscribePush(String queue, String url, String secret) {
        broker.subscribe(queue, url, secret);
    }

    /** Ends every push subscription to the URL, on every queue: a test that subscribed a URL of its own cleans up. */
    public void unsubscribePush(String url) {
        broker.unsubscribe(url);
    }

    /** Drops the injected publish errors not used yet, and the latency; queues and messages stay. */
    public void clearFaults() {
        publishFaults.clear();
    }

    /** Drops all queues, messages, subscriptions, injected faults and counters. */
    public void reset() {
        broker.reset();
        publishFaults.clear();
        api.resetCounters();
    }

    /** Runs an emulator until the process is killed: port from the first argument, API key from INFRAI_API_KEY. */
    public static void main(String[] args) {
        int port = args.length > 0 ? Integer.parseInt(args[0]) : STANDALONE_DEFAULT_PORT;
        String apiKey = System.getenv("INFRAI_API_KEY");
        EmulatorOptions options = EmulatorOptions.defaults()
                .withPort(port)
                .withApiKey(apiKey == null || apiKey.isBlank() ? null : apiKey);
        InfraiEmulator emulator = start(options);
        Runtime.getRuntime().addShutdownHook(new Thread(emulator::close));
        System.out.println("Infrai emulator listening on " + emulator.baseUrl());
    }

    private void dispatchPushes() {
        for (PushAttempt attempt : broker.startPushes()) {
            pushClient.push(attempt).onComplete(outcome -> {
                broker.finishPush(attempt.delivery(), outcome.succeeded() && outcome.result());
                if (!closed.get()) {
                    // on a later turn of the event loop: pushes that fail at once would otherwise recurse deeply
                    vertx.runOnContext(ignored -> dispatchPushes());
                }
            });
        }
    }

    private static <T> T await(Future<T> future) {
        return future.toCompletionStage().toCompletableFuture().join();
    }
}
