package dev.tickler.db;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;

import io.vertx.mutiny.sqlclient.Row;

/** Instants to and from timestamptz columns through the reactive SQL client, which speaks OffsetDateTime. */
public final class SqlTimestamps {

    private SqlTimestamps() {
    }

    /**
     * The instant as a timestamptz parameter, cut to the microsecond Postgres keeps: a finer one would be rounded by
     * the server, so an answer made from it and a later read of the row would disagree by a microsecond.
     */
    public static OffsetDateTime utc(Instant instant) {
        return instant.truncatedTo(ChronoUnit.MICROS).atOffset(ZoneOffset.UTC);
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
