package dev.tickler.db;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;

import io.vertx.mutiny.sqlclient.Row;

/** Instants to and from timestamptz columns through the reactive SQL client, which speaks OffsetDateTime. */
public final class SqlTimestamps {

    private SqlTimestamps() {
    }

    public static OffsetDateTime utc(Instant instant) {
        return instant.atOffset(ZoneOffset.UTC);
    }

    /** The column's instant, or null when the column is NULL. */
    public static Instant instant(Row row, String column) {
        return toInstant(row.getOffsetDateTime(column));
    }

    /** The instant in the first column, or null when it is NULL (as min() over no rows is). */
    public static Instant instant(Row row) {
        return toInstant(row.getOffsetDateTime(0));
    }

    private static Instant toInstant(OffsetDateTime value) {
        return value == null ? null : value.toInstant();
    }
}
