package dev.tickler.delivery;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** A full backlog refuses the tenant that filled it first, and takes others up to a quarter beyond it. */
class BacklogSharesTest {

    private final BacklogShares shares = new BacklogShares(1_000);

    @Test
    void belowTheBacklogEveryTenantIsTaken() {
        assertThat(shares.admits(999, 999, 1)).isTrue();
        assertThat(shares.admits(0, 0, 0)).isTrue();
    }

    @Test
    void atTheBacklogTheTenantThatFilledItIsRefusedAndAnotherIsTaken() {
        assertThat(shares.admits(1_000, 1_000, 1)).isFalse();
        assertThat(shares.admits(1_000, 0, 1)).isTrue();
        // two tenants: each is owed 500
        assertThat(shares.admits(1_100, 100, 2)).isTrue();
        assertThat(shares.admits(1_100, 1_000, 2)).isFalse();
        assertThat(shares.admits(1_100, 500, 2)).isFalse();
    }

    @Test
    void nobodyIsTakenBeyondAQuarterMoreThanTheBacklog() {
        assertThat(shares.admits(1_249, 0, 3)).isTrue();
        assertThat(shares.admits(1_250, 0, 3)).isFalse();
    }
}
