package dev.tickler.local;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.tickler.testing.Ports;

/** The local stack lets go of everything it started: its database, the queue emulator, and the logging notifier. */
class LocalStackTest {

    @Test
    void aStoppedStackFreesTheDatabaseQueueAndNotifierPorts() {
        LocalStack stack = LocalStack.start(Ports.freePort());
        Map<String, String> where = stack.properties();
        List<Integer> ports = List.of(LocalStack.POSTGRES_PORT, LocalStack.INFRAI_PORT, LocalStack.NOTIFIER_PORT)
                .stream().map(name -> Integer.valueOf(where.get(name))).toList();
        assertThat(ports).allSatisfy(port -> assertThat(accepts(port)).as("port %d before stop", port).isTrue());

        stack.stop();

        assertThat(ports).allSatisfy(port -> assertThat(accepts(port)).as("port %d after stop", port).isFalse());
    }

    private static boolean accepts(int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 1000);
            return true;
        } catch (IOException refused) {
            return false;
        }
    }
}
