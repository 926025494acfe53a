package dev.tickler.db;

import org.hibernate.JDBCException;

import io.vertx.pgclient.PgException;

/** Whether a write failed on a unique index: another row already holds what it would write. */
public final class UniqueViolation {

    private static final String SQL_STATE = "23505";

    private UniqueViolation() {
    }

    public static boolean isCauseOf(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof PgException pg && SQL_STATE.equals(pg.getSqlState())
                    || cause instanceof JDBCException jdbc && SQL_STATE.equals(jdbc.getSQLState())) {
                return true;
            }
        }
        return false;
    }
}
