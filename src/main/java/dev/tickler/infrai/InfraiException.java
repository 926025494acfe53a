package dev.tickler.infrai;

/** A queue call that did not succeed, with Infrai's error code and message (or our own for transport failures). */
public class InfraiException extends RuntimeException {

    /** Our code for a call that got no envelope back: connection refused, timeout, a proxy's error page. */
    public static final String UNREACHABLE = "UNREACHABLE";
    public static final String MESSAGE_NOT_IN_FLIGHT = "QUEUE_MESSAGE_NOT_IN_FLIGHT";

    private final int status;
    private final String code;
    private final String errorMessage;

    public InfraiException(int status, String code, String errorMessage) {
        this(status, code, errorMessage, null);
    }

    public InfraiException(int status, String code, String errorMessage, Throwable cause) {
        super(code + " (HTTP " + status + "): " + errorMessage, cause);
        this.status = status;
        this.code = code;
        this.errorMessage = errorMessage;
    }

    /** The HTTP status; 0 when no answer came. */
    public int status() {
        return status;
    }

    public String code() {
        return code;
    }

    public String errorMessage() {
        return errorMessage;
    }
}
