package dev.tickler.ledger;

import dev.tickler.db.LikePatterns;

/**
 * A reminder's key and tags as SQL conditions, for every statement that selects by them (the cancel by filter, the
 * operator's filters), with their values always bound as parameters.
 */
public final class NameConditions {

    private NameConditions() {
    }

    /** The reminder carries the tag bound at the given placeholder. */
    public static String hasTag(String tag) {
        return "tags @> ARRAY[" + tag + "::varchar]";
    }

    /** The reminder's key starts with a prefix, bound at the given placeholder as {@link #keyPrefixPattern}. */
    public static String keyStartsWith(String pattern) {
        return "key LIKE " + pattern + "::text" + LikePatterns.ESCAPE;
    }

    /** The value to bind for {@link #keyStartsWith}: the prefix as given, '_' included, followed by anything. */
    public static String keyPrefixPattern(String prefix) {
        return LikePatterns.startingWith(prefix);
    }
}
