package dev.tickler.console.rest;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.StringJoiner;

/** A query string from name, value pairs; pairs with a null or blank value are left out. */
final class Query {

    private Query() {
    }

    static String of(String... namesAndValues) {
        StringJoiner query = new StringJoiner("&");
        for (int i = 0; i < namesAndValues.length; i += 2) {
            String value = namesAndValues[i + 1];
            if (value != null && !value.isBlank()) {
                query.add(namesAndValues[i] + "=" + URLEncoder.encode(value, StandardCharsets.UTF_8));
            }
        }
        return query.toString();
    }
}
