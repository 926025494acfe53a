package dev.tickler.ledger;

import static dev.tickler.db.SqlTimestamps.instant;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import io.vertx.core.json.JsonObject;
import io.vertx.mutiny.sqlclient.Row;
import dev.tickler.db.WireNamed;

/**
 * One reminder as its row holds it: what every answer of the API renders (docs/contract.md#registration-api). scheduleId and occurrence are
 * null for a one-shot reminder; key is null for a reminder registered without one, and tags is empty when it has none.
 */
public record ReminderRow(long id, String tenant, String userId, Channel channel, String template, Instant fireAt, String tz,
        Map<String, Object> data, ReminderState state, int version, int handoff, int attempts, String messageId,
        String lastError, Instant expiresAt, Instant createdAt, Instant updatedAt, Instant sentAt, boolean urgent,
        Long scheduleId, Integer occurrence, String key, List<String> tags) {

    /** The columns {@link #from(Row)} reads, for RETURNING and SELECT lists. */
    public static final String COLUMNS = "id, tenant, user_id, channel, template, fire_at, tz, data, state, version, handoff,"
            + " attempts, message_id, last_error, expires_at, created_at, updated_at, sent_at, urgent, schedule_id,"
            + " occurrence, key, tags";

    /** {@link #COLUMNS} of a table or record named {@code alias}, e.g. {@code r.id, r.tenant, …}, for a join. */
    public static String columnsOf(String alias) {
        return alias + "." + COLUMNS.replace(", ", ", " + alias + ".");
    }

    public static ReminderRow from(Row row) {
        JsonObject data = row.getJsonObject("data");
        return new ReminderRow(row.getLong("id"), row.getString("tenant"), row.getString("user_id"),
                WireNamed.fromWireName(Channel.class, row.getString("channel")), row.getString("template"),
                instant(row, "fire_at"), row.getString("tz"), data == null ? Map.of() : data.getMap(),
                WireNamed.fromWireName(ReminderState.class, row.getString("state")), row.getInteger("version"),
                row.getInteger("handoff"), row.getInteger("attempts"), row.getString("message_id"),
                row.getString("last_error"), instant(row, "expires_at"), instant(row, "created_at"),
                instant(row, "updated_at"), instant(row, "sent_at"), row.getBoolean("urgent"),
                row.getLong("schedule_id"), row.getInteger("occurrence"), row.getString("key"),
                List.of(row.getArrayOfStrings("tags")));
    }
}
