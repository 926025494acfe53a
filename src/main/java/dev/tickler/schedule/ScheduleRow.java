package dev.tickler.schedule;

import static dev.tickler.db.SqlTimestamps.instant;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.util.Map;

import io.vertx.core.json.JsonObject;
import io.vertx.mutiny.sqlclient.Row;

import dev.tickler.db.WireNamed;
import dev.tickler.ledger.Channel;
import dev.tickler.schedule.recurrence.DstPolicy;
import dev.tickler.schedule.recurrence.RecurrenceRule;

/**
 * One schedule as its row holds it. Besides what the API shows, it keeps where the expansion stands: the cursor (the
 * rule's last occurrence dealt with, by position from 1 and wall time) and the anchor (a position at or before the
 * cursor whose time had passed when it was dealt with). Occurrence numbers are given out in order of position from
 * {@code lastNumber + 1}, so the position p after the cursor gets number {@code lastNumber + p - cursorPosition}.
 */
public record ScheduleRow(long id, String tenant, String userId, Channel channel, String template, Map<String, Object> data,
        Duration expiresAfter, ScheduleDefinition definition, CatchUp catchUp, ScheduleState state, long skippedCount,
        int lastNumber, Position cursor, Position anchor, int version, String createdBy, Instant createdAt,
        Instant updatedAt) {

    /** A position of the rule (from 1) with its wall time; position 0 (wall time null) is "before the first". */
    public record Position(int position, LocalDateTime wallTime) {

        public static final Position BEFORE_FIRST = new Position(0, null);
    }

    public static final String COLUMNS = "id, tenant, user_id, channel, template, data, expires_after, tz, start, rrule,"
            + " dst_gap, dst_overlap, catch_up, state, skipped_count, last_number, cursor_position, cursor_wall_time,"
            + " anchor_position, anchor_wall_time, version, created_by, created_at, updated_at";

    public static ScheduleRow from(Row row) {
        JsonObject data = row.getJsonObject("data");
        String expiresAfter = row.getString("expires_after");
        DstPolicy dst = new DstPolicy(DstPolicy.Gap.fromWireName(row.getString("dst_gap")).orElseThrow(),
                DstPolicy.Overlap.fromWireName(row.getString("dst_overlap")).orElseThrow());
        ScheduleDefinition definition = new ScheduleDefinition(row.getLocalDateTime("start"), row.getString("tz"),
                RecurrenceRule.parse(row.getString("rrule")), dst);
        return new ScheduleRow(row.getLong("id"), row.getString("tenant"), row.getString("user_id"),
                WireNamed.fromWireName(Channel.class, row.getString("channel")), row.getString("template"),
                data == null ? Map.of() : data.getMap(), expiresAfter == null ? null : Duration.parse(expiresAfter),
                definition, WireNamed.fromWireName(CatchUp.class, row.getString("catch_up")),
                WireNamed.fromWireName(ScheduleState.class, row.getString("state")), row.getLong("skipped_count"),
                row.getInteger("last_number"),
                new Position(row.getInteger("cursor_position"), row.getLocalDateTime("cursor_wall_time")),
                new Position(row.getInteger("anchor_position"), row.getLocalDateTime("anchor_wall_time")),
                row.getInteger("version"), row.getString("created_by"), instant(row, "created_at"),
                instant(row, "updated_at"));
    }

    /** The same schedule with what a change or a pause sets; everything else as stored. */
    public ScheduleRow with(ScheduleDefinition newDefinition, CatchUp newCatchUp, Map<String, Object> newData,
            Duration newExpiresAfter, ScheduleState newState, Position newCursor, Position newAnchor) {
        return new ScheduleRow(id, tenant, userId, channel, template, newData, newExpiresAfter, newDefinition, newCatchUp,
                newState, skippedCount, lastNumber, newCursor, newAnchor, version, createdBy, createdAt, updatedAt);
    }

    /** The same schedule in another state. */
    public ScheduleRow inState(ScheduleState newState) {
        return with(definition, catchUp, data, expiresAfter, newState, cursor, anchor);
    }

    /** The occurrence number the rule's position gets (or got, when it is at or before the cursor). */
    public int numberOf(int position) {
        return lastNumber + position - cursor.position();
    }
}
