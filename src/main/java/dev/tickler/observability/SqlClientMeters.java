package dev.tickler.observability;

import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import io.micrometer.core.instrument.config.MeterFilter;

/**
 * The reactive SQL client registers its client meters ({@code postgresql.queue.size}, {@code postgresql.current}, …)
 * once per connection under one name, so every connection after the first logged a warning that the meter was already
 * registered, and the meters showed the first connection only. They are left out; the pool's own meters
 * ({@code sql_pool_*}, which the pool-saturation alert reads) describe the pool as a whole.
 */
@Singleton
public class SqlClientMeters {

    @Produces
    @Singleton
    MeterFilter leaveOutPerConnectionMeters() {
        return MeterFilter.deny(id -> id.getName().startsWith("postgresql.") && "sql".equals(id.getTag("clientType")));
    }
}
