package dev.tickler.http;

/** How a call that got no HTTP answer failed, in words an operator can act on. */
public final class TransportFailure {

    private TransportFailure() {
    }

    /**
     * The failure's message, and its deepest cause's where that says more: a TLS handshake fails as "Failed to create
     * SSL connection", and only its cause says that no trusted certificate vouches for the server, or that the
     * certificate names another host.
     */
    public static String describe(Throwable failure) {
        String message = messageOf(failure);
        Throwable root = deepestCause(failure);
        String rootMessage = root.getMessage();
        return root == failure || rootMessage == null || message.contains(rootMessage) ? message
                : message + " (" + rootMessage + ")";
    }

    /** The cause at the bottom of the chain, where the wrappers' messages end and the reason is. */
    public static Throwable deepestCause(Throwable failure) {
        Throwable root = failure;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root;
    }

    /** Its message, or its kind when it has none. */
    public static String messageOf(Throwable failure) {
        return failure.getMessage() == null ? failure.getClass().getSimpleName() : failure.getMessage();
    }
}
