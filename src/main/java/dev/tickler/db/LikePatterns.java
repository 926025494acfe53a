package dev.tickler.db;

/**
 * LIKE patterns that match text as given: its wildcards ('%', '_') and the escape character lose their meaning. Use
 * them with {@link #ESCAPE} after the pattern.
 */
public final class LikePatterns {

    public static final String ESCAPE = " ESCAPE '\\'";

    private LikePatterns() {
    }

    /** Text that starts with the given text. */
    public static String startingWith(String text) {
        return escaped(text) + "%";
    }

    /** Text that contains the given text. */
    public static String containing(String text) {
        return "%" + escaped(text) + "%";
    }

    static String escaped(String text) {
        return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_");
    }
}
