package dev.tickler.delivery;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import io.smallrye.mutiny.subscription.Cancellable;

/** Turns at the notifier go round-robin across tenants, never beyond the capacity, and a cancelled wait holds none. */
class TenantTurnsTest {

    private final AtomicInteger capacity = new AtomicInteger(1);
    private final TenantTurns turns = new TenantTurns(capacity::get);
    private final List<String> started = new ArrayList<>();
    private final List<TenantTurns.Turn> holding = new ArrayList<>();

    @Test
    void aTenantWithFewWaitingTakesTurnsWithOneWithMany() {
        take("a", "a-0");
        for (int i = 1; i <= 5; i++) {
            take("a", "a-" + i);
        }
        take("b", "b-1");
        take("b", "b-2");

        for (int i = 0; i < 7; i++) {
            releaseOldest();
        }

        assertThat(started).containsExactly("a-0", "a-1", "b-1", "a-2", "b-2", "a-3", "a-4", "a-5");
    }

    @Test
    void noMoreThanTheCapacityHoldATurnAndARaisedCapacityStartsMore() {
        capacity.set(2);
        for (int i = 0; i < 5; i++) {
            take("a", "a-" + i);
        }
        assertThat(started).containsExactly("a-0", "a-1");
        assertThat(turns.waiting()).isEqualTo(3);

        capacity.set(4);
        releaseOldest();

        assertThat(started).containsExactly("a-0", "a-1", "a-2", "a-3", "a-4");
        assertThat(turns.waiting()).isZero();
    }

    @Test
    void aCancelledWaitIsPassedOverAndAReleasedTurnCountsOnce() {
        take("a", "a-0");
        Cancellable gone = turns.take("b").subscribe().with(turn -> started.add("b-gone"));
        take("c", "c-1");

        gone.cancel();
        TenantTurns.Turn first = holding.get(0);
        first.release();
        first.release();

        assertThat(started).containsExactly("a-0", "c-1");
        assertThat(turns.waiting()).isZero();
        take("a", "a-1");
        assertThat(started).as("c-1 holds the only turn").containsExactly("a-0", "c-1");
    }

    private void take(String tenant, String label) {
        turns.take(tenant).subscribe().with(turn -> {
            started.add(label);
            holding.add(turn);
        });
    }

    private void releaseOldest() {
        holding.remove(0).release();
    }
}
