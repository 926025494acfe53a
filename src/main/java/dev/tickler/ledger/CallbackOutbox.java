package dev.tickler.ledger;

import java.util.Arrays;
import java.util.Collection;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import dev.tickler.security.Tenants;
import dev.tickler.timeline.EventType;
import dev.tickler.timeline.TimelineSql;
import dev.tickler.timeline.TimelineSql.Event;

/**
 * The delivery callbacks' outbox as the ledger writes it (docs/api.md, "Delivery callbacks"): a statement that ends
 * reminders sent, failed, expired or skipped also writes, for each reminder of a tenant with a callback URL, one
 * callback event holding the row as that statement left it, so the event commits or rolls back with the change. Every
 * terminal write of {@link ReminderLedger} is made by {@link #finishing}; the event's type and time are those of the
 * statement's terminal timeline event, so a callback reports exactly what the timeline records.
 */
public final class CallbackOutbox {

    /** The outcomes a product service hears of (docs/contract.md#timeline: the terminal transitions but cancel). */
    static final Set<EventType> REPORTED = EnumSet.of(EventType.SENT, EventType.FAILED, EventType.EXPIRED,
            EventType.SKIPPED);

    /** For a tenant without callbacks the row is never turned into JSON: the statement is as cheap as without them. */
    private static final String REPORTED_ROW = "callback_reminder";

    /** The tenants as an SQL list, e.g. ('billing', 'checkout'); null when none has callbacks. */
    private final String tenantList;

    private CallbackOutbox(String tenantList) {
        this.tenantList = tenantList;
    }

    /**
     * For the given tenants: names a key's tenant can have ({@link Tenants#NAME}: letters, digits, '_', '.', '-'),
     * which the start-up check of their settings holds them to, so they are written into the statements as they are.
     */
    public static CallbackOutbox of(Collection<String> tenants) {
        if (tenants.isEmpty()) {
            return new CallbackOutbox(null);
        }
        tenants.forEach(tenant -> {
            if (!Tenants.NAME.matcher(tenant).matches()) {
                throw new IllegalArgumentException("not a tenant's name: " + tenant);
            }
        });
        return new CallbackOutbox(tenants.stream().sorted().map(tenant -> "'" + tenant + "'")
                .collect(Collectors.joining(", ", "(", ")")));
    }

    /**
     * A terminal transition in one statement: the change (a data-modifying statement on reminders without its
     * RETURNING), its events, exactly one of them terminal, and the callback events of the rows it changed; answers
     * {@code returning}, plain or qualified column names as the change would return them.
     */
    String finishing(String change, String returning, Event... events) {
        List<Event> terminal = Arrays.stream(events).filter(event -> REPORTED.contains(event.type())).toList();
        if (terminal.size() != 1) {
            throw new IllegalArgumentException("a terminal transition records one terminal event, not " + terminal);
        }
        String answering = Arrays.stream(returning.split(","))
                .map(column -> column.strip().substring(column.strip().lastIndexOf('.') + 1))
                .collect(Collectors.joining(", "));
        if (tenantList == null) {
            return TimelineSql.recording(change + " RETURNING " + returning, "", answering, events);
        }
        Event outcome = terminal.get(0);
        return TimelineSql.recording(change + " RETURNING " + returning + ", CASE WHEN tenant IN " + tenantList
                + " THEN to_jsonb(reminders) END AS " + REPORTED_ROW,
                ", reported AS (INSERT INTO callback_events (tenant, reminder_id, type, created_at, reminder,"
                        + " next_attempt_at, tried_since) SELECT changed." + REPORTED_ROW + "->>'tenant', changed.id,"
                        + " 'reminder." + outcome.type().wireName() + "', (" + outcome.at() + ")::timestamptz, changed."
                        + REPORTED_ROW + ", (" + outcome.at() + ")::timestamptz, (" + outcome.at() + ")::timestamptz"
                        + " FROM changed WHERE changed." + REPORTED_ROW + " IS NOT NULL)",
                answering, events);
    }
}
