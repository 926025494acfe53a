package dev.tickler.publish;

import com.fasterxml.jackson.annotation.JsonInclude;

import io.quarkus.runtime.annotations.RegisterForReflection;

/**
 * What a queue message carries: ids only; everything else is read from Postgres at delivery
 * (docs/contract.md#postgres-is-the-source-of-truth). Beside them the reminder's tenant, which only decides who is
 * refused first when the receiver's backlog is full (the claim reads the row's own; docs/delivery.md, "Fair
 * delivery"), and, when tracing is on, the W3C context of the publish that sent it, so that the push continues the
 * trace; a message without them, or with ones that cannot be read, is delivered all the same. Published as an Object,
 * so Jackson reaches it by reflection, which a native image keeps only when told.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@RegisterForReflection
public record ReminderMessage(long reminderId, int version, String tenant, String traceparent, String tracestate) {

    public ReminderMessage(long reminderId, int version) {
        this(reminderId, version, null, null, null);
    }
}
