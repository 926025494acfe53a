package dev.tickler.security;

import java.util.List;

import jakarta.inject.Singleton;

import dev.tickler.config.TicklerConfig;

/** The {token} path segments this instance accepts on its push path (tickler.push.tokens), compared in constant time. */
@Singleton
public class PushTokens {

    private final SecretSet tokens;

    public PushTokens(TicklerConfig config) {
        this.tokens = new SecretSet(config.push().tokens().orElse(List.of()));
    }

    public boolean accepts(String token) {
        return tokens.contains(token);
    }
}
