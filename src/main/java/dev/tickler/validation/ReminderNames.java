package dev.tickler.validation;

import java.util.List;
import java.util.regex.Pattern;

/**
 * The caller's own names for its reminders (docs/contract.md#keyed-reminders-and-cancel-by-filter): a key, 1 to 200
 * characters that make a plain path segment, and tags, at most 10, each 1 to 64 of the same characters. One place for
 * the rules that bodies, paths, the cancel filter and the operator's filters share.
 */
public final class ReminderNames {

    public static final int MAX_KEY_LENGTH = 200;
    public static final int MAX_TAG_LENGTH = 64;
    public static final int MAX_TAGS = 10;

    private static final String CHARACTERS = "[A-Za-z0-9_.:-]";
    private static final String CHARACTER_NAMES = "A-Z, a-z, 0-9, '_', '.', ':' and '-'";

    /** Constants, so that annotations can name them. */
    public static final String KEY_REGEX = CHARACTERS + "{1," + MAX_KEY_LENGTH + "}";
    public static final String TAG_REGEX = CHARACTERS + "{1," + MAX_TAG_LENGTH + "}";
    public static final String KEY_RULE = "must be 1 to " + MAX_KEY_LENGTH + " of " + CHARACTER_NAMES;
    public static final String TAG_RULE = "must be 1 to " + MAX_TAG_LENGTH + " of " + CHARACTER_NAMES;
    /** A template's name as a filter gives it; a body's is checked by {@link TemplateName}, one rule at a time. */
    public static final String TEMPLATE_RULE = "must be 1 to 128 of A-Z, a-z, 0-9, '_', '.' and '-'";

    private static final Pattern KEY = Pattern.compile(KEY_REGEX);
    private static final Pattern TAG = Pattern.compile(TAG_REGEX);
    private static final Pattern TEMPLATE = Pattern.compile("[A-Za-z0-9_.-]{1,128}");

    private ReminderNames() {
    }

    /** A key, or the start of one (a key prefix follows the same rule). */
    public static boolean isKey(String text) {
        return text != null && KEY.matcher(text).matches();
    }

    public static boolean isTag(String text) {
        return text != null && TAG.matcher(text).matches();
    }

    public static boolean isTemplate(String text) {
        return text != null && TEMPLATE.matcher(text).matches();
    }

    /** What is wrong with a list of tags; null when nothing is. */
    public static String tagsProblem(List<String> tags) {
        if (tags.size() > MAX_TAGS) {
            return "must hold at most " + MAX_TAGS + " tags; it holds " + tags.size();
        }
        for (int i = 0; i < tags.size(); i++) {
            if (!isTag(tags.get(i))) {
                return "tags[" + i + "] " + TAG_RULE;
            }
        }
        return null;
    }
}
