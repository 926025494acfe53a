package dev.tickler.db;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The opaque cursors of keyset pagination, one codec for every list: the list's kind and the parts of the position
 * where a page ended, base64url without padding. The kind keeps a cursor of one list from being taken by another.
 */
public final class Cursor {

    private static final String SEPARATOR = "|";

    private Cursor() {
    }

    public static String encode(String kind, Object... parts) {
        String position = kind + SEPARATOR + Arrays.stream(parts).map(String::valueOf)
                .collect(Collectors.joining(SEPARATOR));
        return Base64.getUrlEncoder().withoutPadding().encodeToString(position.getBytes(StandardCharsets.UTF_8));
    }

    /** The parts of a cursor of the given kind; empty when the text is not one this codec made with that many. */
    public static Optional<List<String>> decode(String kind, String cursor, int parts) {
        try {
            String position = new String(Base64.getUrlDecoder().decode(cursor), StandardCharsets.UTF_8);
            String[] fields = position.split("\\" + SEPARATOR, -1);
            if (fields.length != parts + 1 || !fields[0].equals(kind)) {
                return Optional.empty();
            }
            return Optional.of(List.of(fields).subList(1, fields.length));
        } catch (IllegalArgumentException notACursor) {
            return Optional.empty();
        }
    }
}
