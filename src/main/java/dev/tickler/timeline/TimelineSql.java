package dev.tickler.timeline;

import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * Statements that make a change and write its events (docs/contract.md#timeline) in one: the change is a data-modifying
 * statement whose RETURNING holds the row's {@code id}; each event is a row of SQL expressions over the statement's
 * parameters and the changed row's columns ({@code changed.<column>}). One statement is one transaction, and it can
 * still be pipelined with others in a batch, so the hot path pays no extra round trip for its history.
 */
public final class TimelineSql {

    private TimelineSql() {
    }

    /** One event per changed row: when (a timestamptz expression), what, and a jsonb expression for the details. */
    public record Event(String at, EventType type, String detail) {

        public static Event of(String at, EventType type) {
            return new Event(at, type, "'{}'");
        }

        /** Details from {@code 'name', value} pairs; a null value leaves its field out. */
        public static Event of(String at, EventType type, String... namesAndValues) {
            return new Event(at, type, "jsonb_strip_nulls(jsonb_build_object(" + String.join(", ", namesAndValues) + "))");
        }

        private String values() {
            return "((" + at + ")::timestamptz, '" + type.wireName() + "', (" + detail + ")::jsonb)";
        }
    }

    /** The change, with its events written for every row it changed; answers the change's RETURNING columns. */
    public static String recording(String change, Event... events) {
        return recordingAnswering(change, "SELECT * FROM changed", events);
    }

    /**
     * The same, answering with the given query instead, which may read {@code changed} (the changed rows) and the
     * tables as they were before the statement.
     */
    public static String recordingAnswering(String change, String answer, Event... events) {
        return withEvents(change, "", events) + " " + answer;
    }

    /**
     * The same with further writes of the statement after its events ({@code moreWrites}: {@code , name AS (…)} CTEs
     * that read {@code changed}), answering only the given columns of the change's RETURNING.
     */
    public static String recording(String change, String moreWrites, String answering, Event... events) {
        return withEvents(change, moreWrites, events) + " SELECT " + answering + " FROM changed";
    }

    private static String withEvents(String change, String moreWrites, Event... events) {
        String rows = Arrays.stream(events).map(Event::values).collect(Collectors.joining(", "));
        return "WITH changed AS (" + change + "), logged AS (INSERT INTO reminder_events (reminder_id, at, type, detail)"
                + " SELECT changed.id, event.at, event.type, event.detail FROM changed"
                + " CROSS JOIN LATERAL (VALUES " + rows + ") AS event(at, type, detail))" + moreWrites;
    }
}
