package dev.tickler.delivery;

import static dev.tickler.testing.Api.createdId;
import static dev.tickler.testing.Api.reminderAt;
import static dev.tickler.testing.NotifierResource.notifier;
import static dev.tickler.testing.Push.message;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;

import dev.tickler.testing.Api;
import dev.tickler.testing.InfraiEmulatorResource;
import dev.tickler.testing.RawHttp;
import dev.tickler.testing.RawHttp.Departure;

/**
 * A push whose client hangs up right after its body (a queue that gave up during a slow start or a pause) still
 * leads to exactly one delivery, within seconds and without any sweep: the claim and the start of its delivery are
 * not part of the request's cancellable chain.
 */
@QuarkusTest
class ClientGoneTest {

    private static final int PER_DEPARTURE = 20;
    private static final Duration DEADLINE = Duration.ofSeconds(15);

    @Test
    void pushesWhoseClientClosesAreEachDeliveredOnce() throws Exception {
        pushAndLeave(Departure.CLOSE);
    }

    @Test
    void pushesWhoseClientResetsAreEachDeliveredOnce() throws Exception {
        pushAndLeave(Departure.RESET);
    }

    private void pushAndLeave(Departure departure) throws Exception {
        List<Map<String, Object>> bodies = new ArrayList<>();
        List<Long> ids = new ArrayList<>();
        for (int i = 0; i < PER_DEPARTURE; i++) {
            // the default queue has no push subscription in tests: only these hand-made pushes arrive
            Map<String, Object> body = reminderAt(Instant.now());
            bodies.add(body);
            ids.add(createdId(body));
        }
        String path = "/q/" + InfraiEmulatorResource.PUSH_TOKEN + "/reminders";
        ExecutorService clients = Executors.newFixedThreadPool(PER_DEPARTURE);
        try {
            List<Future<String>> sent = new ArrayList<>();
            for (long id : ids) {
                sent.add(clients.submit(() -> RawHttp.post(path, "application/json", message(id, 0), departure)));
            }
            for (Future<String> push : sent) {
                push.get();
            }
        } finally {
            clients.shutdownNow();
        }

        for (long id : ids) {
            await().atMost(DEADLINE).until(() -> "sent".equals(Api.get(id).extract().path("state")));
        }
        for (Map<String, Object> body : bodies) {
            assertThat(notifier().receivedFor((String) body.get("user_id"))).hasSize(1);
        }
    }
}
