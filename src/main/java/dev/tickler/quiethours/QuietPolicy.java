package dev.tickler.quiethours;

import java.util.Arrays;
import java.util.Optional;

/** What happens to a reminder that falls inside a quiet window: sent at the window's end, or not at all. */
public enum QuietPolicy {
    DEFER("defer"),
    SKIP("skip");

    private final String wireName;

    QuietPolicy(String wireName) {
        this.wireName = wireName;
    }

    public String wireName() {
        return wireName;
    }

    public static Optional<QuietPolicy> find(String wireName) {
        return Arrays.stream(values()).filter(policy -> policy.wireName.equals(wireName)).findFirst();
    }
}
