package dev.tickler.security;

import java.util.List;
import java.util.regex.Pattern;

import jakarta.inject.Singleton;

import dev.tickler.config.TicklerConfig;

/** The {token} path segments this instance accepts on its push path (tickler.push.tokens), compared in constant time. */
@Singleton
public class PushTokens {

    private static final Pattern PUSH_PATH = Pattern.compile("/q/[^/?#]+/reminders/?");

    private final SecretSet tokens;

    public PushTokens(TicklerConfig config) {
        this.tokens = new SecretSet(config.push().tokens().orElse(List.of()));
    }

    public boolean accepts(String token) {
        return tokens.contains(token);
    }

    /** Whether a request path is a push path, whatever its token. */
    public static boolean isPushPath(String path) {
        return path != null && PUSH_PATH.matcher(path).matches();
    }

    /** The path with any push token replaced by "{token}", so it can be logged. */
    public static String redacted(String path) {
        return path == null ? null : PUSH_PATH.matcher(path).replaceAll("/q/{token}/reminders");
    }
}
