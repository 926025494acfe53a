package dev.tickler.delivery;

import static dev.tickler.testing.NotifierResource.notifier;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.lang.ref.WeakReference;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.quarkus.arc.Arc;
import io.quarkus.arc.InjectableContext;
import io.quarkus.arc.ManagedContext;
import io.quarkus.test.junit.QuarkusTest;
import io.smallrye.common.vertx.VertxContext;
import io.smallrye.context.SmallRyeThreadContext;
import io.vertx.core.Vertx;

import dev.tickler.delivery.DeliveryIntake.Acceptance;
import dev.tickler.publish.ReminderMessage;
import dev.tickler.testing.Api;
import dev.tickler.testing.Database;
import dev.tickler.testing.NotifierStandIn.Reply;

/**
 * What a claimed delivery keeps while it waits (for the notifier, its turn, a retry): on the push path that heap is
 * what the collector copies for every held delivery, so it decides how many pushes an instance takes a second.
 */
@QuarkusTest
class HeldDeliveryTest {

    @Inject
    DeliveryIntake delivery;

    @Inject
    Vertx vertx;

    @Inject
    Database database;

    @Test
    void aHeldDeliveryDoesNotKeepTheRequestContextThatClaimedIt() throws Exception {
        String user = Api.newUser();
        // every attempt outlasts the notifier timeout, so the delivery stays held for several seconds
        notifier().script(user, Reply.okAfter(Duration.ofMinutes(1)));
        long id = database.insertReminder(user, "handed_off", Instant.now(), "");

        AtomicReference<WeakReference<InjectableContext.ContextState>> request = new AtomicReference<>();
        CompletableFuture<Acceptance> accepted = new CompletableFuture<>();
        // a push as the HTTP layer serves one: on a duplicated context of its own, inside an active request context
        // that ends once the push is answered
        VertxContext.createNewDuplicatedContext(vertx.getOrCreateContext()).runOnContext(ignored -> {
            ManagedContext requestContext = Arc.container().requestContext();
            requestContext.activate();
            request.set(new WeakReference<>(requestContext.getState()));
            delivery.accept(new ReminderMessage(id, 0), Transport.PUSH).subscribe().with(acceptance -> {
                accepted.complete(acceptance);
                Arc.container().requestContext().terminate();
            }, accepted::completeExceptionally);
        });
        assertThat(accepted.get(10, TimeUnit.SECONDS)).isInstanceOf(Acceptance.Claimed.class);

        await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(100)).until(() -> {
            System.gc();
            return request.get().get() == null;
        });
        // collected while the delivery still waits, not because it ended
        assertThat(delivery.held()).containsKey(id);
    }

    @Test
    void mutinyCallbacksRunUnwrapped() {
        var context = SmallRyeThreadContext.getCurrentThreadContextOrDefaultContexts();
        Function<String, String> callback = String::trim;

        assertThat(context.getPlan().propagatedProviders).isEmpty();
        assertThat(context.getPlan().clearedProviders).isEmpty();
        assertThat(context.contextualFunction(callback)).isSameAs(callback);
    }
}
