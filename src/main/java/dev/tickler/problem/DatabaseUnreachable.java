package dev.tickler.problem;

import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Set;

import io.vertx.pgclient.PgException;
import io.vertx.sqlclient.ClosedConnectionException;

/**
 * Failures that say Postgres cannot be reached right now (refused, gone, restarting, out of connections) rather
 * than that a request was wrong: the caller should try again, so they are a 503, not a 500.
 */
final class DatabaseUnreachable {

    /** SQLSTATE class 08 is connection exceptions; these others mean the server is going down or full. */
    private static final Set<String> UNAVAILABLE_STATES = Set.of("57P01", "57P02", "57P03", "53300");

    /** How the SQL client says a connection went away or none could be had; it has no types for these. */
    private static final List<String> CLIENT_MESSAGES = List.of("Timeout waiting for connection",
            "Connection is not active now", "Pending requests failed to be sent due to connection has been closed");

    private DatabaseUnreachable() {
    }

    static boolean is(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof ConnectException || cause instanceof NoRouteToHostException
                    || cause instanceof UnknownHostException || cause instanceof ClosedConnectionException) {
                return true;
            }
            if (cause instanceof PgException pg && pg.getSqlState() != null
                    && (pg.getSqlState().startsWith("08") || UNAVAILABLE_STATES.contains(pg.getSqlState()))) {
                return true;
            }
            String message = cause.getMessage();
            if (message != null && CLIENT_MESSAGES.stream().anyMatch(message::startsWith)) {
                return true;
            }
            if (cause.getCause() == cause) {
                break;
            }
        }
        return false;
    }
}
