package dev.tickler.validation;

/**
 * What text Tickler accepts anywhere (bodies, paths, query parameters): Postgres refuses the NUL character in
 * text and jsonb, and a lone UTF-16 surrogate cannot be encoded as UTF-8, so it would be stored as something else.
 * Both are refused before anything is written.
 */
public final class TextRules {

    public static final String NOT_STORABLE = "must not contain the NUL character or unpaired UTF-16 surrogates";

    private TextRules() {
    }

    public static boolean isStorable(String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '\0') {
                return false;
            }
            if (Character.isHighSurrogate(c)) {
                if (i + 1 == text.length() || !Character.isLowSurrogate(text.charAt(i + 1))) {
                    return false;
                }
                i++;
            } else if (Character.isLowSurrogate(c)) {
                return false;
            }
        }
        return true;
    }
}
