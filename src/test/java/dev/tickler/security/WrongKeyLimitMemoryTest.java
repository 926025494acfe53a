package dev.tickler.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfigBuilder;

import dev.tickler.config.TicklerConfig;
import dev.tickler.testing.MovableClock;

/**
 * The limit's memory stays bounded whatever the number of addresses a guesser sends from: past
 * {@link WrongKeyLimit#MAX_ADDRESSES} the new ones share one count, and addresses whose minute has passed make room.
 */
class WrongKeyLimitMemoryTest {

    private final MovableClock clock = new MovableClock();
    private final WrongKeyLimit limit = new WrongKeyLimit(new SmallRyeConfigBuilder()
            .withMapping(TicklerConfig.class)
            .withSources(new PropertiesConfigSource(Map.of("tickler.api.wrong-keys-per-minute", "10"), "this test", 100))
            .build().getConfigMapping(TicklerConfig.class), clock);

    @Test
    void pastTheTrackedAddressesNewOnesShareOneCountAndForgottenOnesMakeRoom() {
        for (int i = 0; i < WrongKeyLimit.MAX_ADDRESSES; i++) {
            limit.wrongKey("tracked-" + i);
        }
        for (int i = 0; i < 10; i++) {
            limit.wrongKey("sprayed-" + i);
        }

        assertThat(limit.wait("another-new-one")).isPresent();
        assertThat(limit.wait("tracked-1")).isEmpty();

        clock.moveBy(Duration.ofMinutes(1));
        limit.wrongKey("after-a-minute");

        assertThat(limit.wait("another-new-one")).isEmpty();
        assertThat(limit.wait("after-a-minute")).isEmpty();
    }
}
