package dev.tickler.db;

import java.util.Arrays;
import java.util.Optional;

import com.fasterxml.jackson.annotation.JsonValue;

/** An enum known by a lower-case name in the API, the database and the logs. */
public interface WireNamed {

    @JsonValue
    String wireName();

    static <E extends Enum<E> & WireNamed> Optional<E> find(Class<E> type, String name) {
        return Arrays.stream(type.getEnumConstants()).filter(c -> c.wireName().equals(name)).findFirst();
    }

    static <E extends Enum<E> & WireNamed> E fromWireName(Class<E> type, String name) {
        return find(type, name).orElseThrow(
                () -> new IllegalArgumentException("unknown " + type.getSimpleName() + ": " + name));
    }
}
