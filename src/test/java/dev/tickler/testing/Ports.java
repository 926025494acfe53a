package dev.tickler.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;

/** Loopback ports for tests. */
public final class Ports {

    private static final Path EPHEMERAL_RANGE = Path.of("/proc/sys/net/ipv4/ip_local_port_range");
    private static final int LOWEST = 10_000;
    /** Below the kernel's ephemeral ports, when it says where they start and there is room below. */
    private static final int ABOVE_CHOSEN = ephemeralStart();
    private static final Set<Integer> HANDED_OUT = ConcurrentHashMap.newKeySet();

    private Ports() {
    }

    /**
     * A port nothing listens on right now: free to bind, or certain to refuse a connection. Chosen below the ephemeral
     * range, so that no outgoing connection takes it as its own port before the test binds it (an application under
     * test binds its ports well after they were chosen), and never twice in one run.
     */
    public static int freePort() {
        if (ABOVE_CHOSEN > LOWEST + 1_000) {
            for (int tries = 0; tries < 1_000; tries++) {
                int port = ThreadLocalRandom.current().nextInt(LOWEST, ABOVE_CHOSEN);
                if (HANDED_OUT.add(port) && bindable(port)) {
                    return port;
                }
            }
        }
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static boolean bindable(int port) {
        try (ServerSocket socket = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static int ephemeralStart() {
        try {
            // readAllLines, not readString: a file of /proc reports no size, and readString then stops early
            return Integer.parseInt(Files.readAllLines(EPHEMERAL_RANGE).get(0).trim().split("\\s+")[0]);
        } catch (IOException | RuntimeException e) {
            return 0;
        }
    }
}
