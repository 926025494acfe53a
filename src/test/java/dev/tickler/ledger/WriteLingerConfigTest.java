package dev.tickler.ledger;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfigBuilder;
import io.vertx.core.Vertx;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.pgclient.PgBuilder;

import dev.tickler.config.TicklerConfig;
import dev.tickler.security.ApiKeys;
import dev.tickler.security.TenantCallbacks;
import dev.tickler.time.Pause;

/**
 * The lingers of the batched writes are bounded where the ledger is built, so an instance configured past them does
 * not start: a settling write's claim is no longer renewed while it waits, and a registration's client is waiting.
 */
class WriteLingerConfigTest {

    private final Vertx vertx = Vertx.vertx();

    @AfterEach
    void closeVertx() {
        vertx.close().toCompletionStage().toCompletableFuture().join();
    }

    @ParameterizedTest
    @CsvSource({ "tickler.api.registration-linger, PT1.001S", "tickler.api.registration-linger, PT-0.01S",
            "tickler.delivery.settle-linger, PT2S", "tickler.delivery.settle-linger, PT-1S" })
    void aLingerOutsideZeroToOneSecondIsRefusedByName(String key, String linger) {
        assertThatThrownBy(() -> ledger(key, linger)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining(key + " is " + linger)
                .hasMessageContaining("between zero").hasMessageContaining("PT1S");
    }

    @ParameterizedTest
    @CsvSource({ "tickler.api.registration-linger, PT0S", "tickler.api.registration-linger, PT1S",
            "tickler.delivery.settle-linger, PT0.05S", "tickler.delivery.settle-linger, PT0S" })
    void aLingerFromZeroToOneSecondIsTaken(String key, String linger) {
        assertThatCode(() -> ledger(key, linger)).doesNotThrowAnyException();
    }

    private ReminderLedger ledger(String key, String linger) {
        TicklerConfig config = new SmallRyeConfigBuilder().withMapping(TicklerConfig.class)
                .withSources(new PropertiesConfigSource(Map.of("tickler.api.keys", "linger-test-secret-5d1c8e0b",
                        key, linger), "this test", 100))
                .build().getConfigMapping(TicklerConfig.class);
        // a pool connects on first use only; building the ledger never uses it
        Pool pool = Pool.newInstance(PgBuilder.pool().connectingTo("postgresql://127.0.0.1:1/none").using(vertx)
                .build());
        return new ReminderLedger(pool, new TenantCallbacks(config, new ApiKeys(config)), config, new Pause(vertx));
    }
}
