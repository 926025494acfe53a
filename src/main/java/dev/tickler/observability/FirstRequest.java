package dev.tickler.observability;

import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;

import io.quarkus.scheduler.Scheduled;
import io.quarkus.scheduler.ScheduledExecution;
import io.quarkus.vertx.http.ManagementInterface;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

/**
 * Whether anyone has asked this instance for anything yet: a call on the public port, or a metrics scrape (health
 * probes do not count, on either port). Work that refreshes by itself waits for that, so a cold start makes no call of
 * its own before it serves its first request.
 */
@Singleton
public class FirstRequest {

    private volatile boolean seen;

    void watchPublicPort(@Observes Router router) {
        router.route().order(Integer.MIN_VALUE).handler(this::see);
    }

    void watchScrapes(@Observes ManagementInterface management) {
        management.router().route("/q/metrics").order(Integer.MIN_VALUE).handler(this::see);
    }

    public boolean seen() {
        return seen;
    }

    private void see(RoutingContext context) {
        if (!seen && !PublicLiveness.PATH.equals(context.normalizedPath())) {
            seen = true;
        }
        context.next();
    }

    /** For {@code skipExecutionIf}: skips a scheduled job until the first request. */
    @Singleton
    public static class NotYet implements Scheduled.SkipPredicate {

        private final FirstRequest firstRequest;

        public NotYet(FirstRequest firstRequest) {
            this.firstRequest = firstRequest;
        }

        @Override
        public boolean test(ScheduledExecution execution) {
            return !firstRequest.seen();
        }
    }
}
