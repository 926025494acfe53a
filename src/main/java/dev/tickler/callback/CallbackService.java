package dev.tickler.callback;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;

import io.smallrye.mutiny.Uni;

import dev.tickler.config.TicklerConfig;
import dev.tickler.security.Caller;

/**
 * The callbacks API's reads and redeliveries (docs/api.md, "Delivery callbacks"): a product key sees and redelivers
 * only its tenant's events, an operator key every tenant's, as with reminders; an event is kept for
 * tickler.callbacks.retention from when it was written or last redelivered.
 */
@ApplicationScoped
public class CallbackService {

    /** Events one redelivery after a cursor sends again; more answers whether any are left after them. */
    public static final int MAX_REDELIVERED = 1_000;

    private final CallbackRepository repository;
    private final Clock clock;
    private final Duration retention;

    public CallbackService(CallbackRepository repository, Clock clock, TicklerConfig config) {
        this.repository = repository;
        this.clock = clock;
        this.retention = config.callbacks().retention();
    }

    /** A page of events and the position to go on from, null on the last page. */
    public record Page(List<CallbackRepository.Listed> items, CallbackPosition next) {
    }

    public Uni<Page> list(Caller caller, CallbackPosition after, int limit) {
        Instant now = now();
        CallbackPosition from = after == null ? CallbackPosition.START : after;
        return repository.page(caller.visibleTenant(), from.id(), now.minus(retention), limit + 1).map(rows -> {
            if (rows.size() <= limit) {
                return new Page(rows, null);
            }
            List<CallbackRepository.Listed> page = rows.subList(0, limit);
            return new Page(page, new CallbackPosition(page.get(limit - 1).id()));
        });
    }

    /** How many events a redelivery sent again, and whether a redelivery after a cursor left more behind. */
    public record Redelivered(int redelivered, boolean more) {
    }

    public Uni<Redelivered> redeliver(Caller caller, List<Long> ids) {
        Instant now = now();
        return repository.redeliver(ids, caller.visibleTenant(), now, now.minus(retention))
                .map(count -> new Redelivered(count, false));
    }

    public Uni<Redelivered> redeliverAfter(Caller caller, CallbackPosition after) {
        Instant now = now();
        return repository.redeliverAfter(after.id(), caller.visibleTenant(), now, now.minus(retention),
                        MAX_REDELIVERED)
                .map(count -> new Redelivered(count, count == MAX_REDELIVERED));
    }

    private Instant now() {
        return clock.instant().truncatedTo(ChronoUnit.MICROS);
    }
}
