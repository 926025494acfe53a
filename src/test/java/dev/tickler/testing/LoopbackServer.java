package dev.tickler.testing;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;

/**
 * The JDK's HTTP server on a free loopback port, a thread per request so that a scripted slow answer holds only its
 * own caller: what the stand-ins of the services Tickler calls run on.
 */
final class LoopbackServer implements AutoCloseable {

    private final HttpServer server;
    private final ExecutorService executor = Executors.newCachedThreadPool();

    private LoopbackServer(String path, HttpHandler handler) throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 200);
        server.createContext(path, handler);
        server.setExecutor(executor);
        server.start();
    }

    /** Serves requests under this path with the handler; {@code what} names the stand-in if it cannot start. */
    static LoopbackServer start(String path, HttpHandler handler, String what) {
        try {
            return new LoopbackServer(path, handler);
        } catch (IOException e) {
            throw new IllegalStateException(what + " did not start", e);
        }
    }

    String url(String path) {
        return "http://127.0.0.1:" + server.getAddress().getPort() + path;
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }
}
