package dev.tickler.console.rest;

import java.time.Duration;
import java.time.Instant;
import java.util.Date;

import jakarta.ws.rs.core.NewCookie;
import jakarta.ws.rs.core.UriInfo;

import dev.tickler.console.ConsoleSessions;
import dev.tickler.console.ConsoleSessions.Session;

/** The console's cookies: only for /ops, never readable by script, never sent cross-site, Secure over HTTPS. */
final class ConsoleCookies {

    private static final String PATH = "/ops";
    private static final Duration SIGN_IN_FORM_LIFETIME = Duration.ofHours(1);

    private ConsoleCookies() {
    }

    static NewCookie session(Session session, Duration lifetime, UriInfo uri) {
        return cookie(ConsoleSessions.SESSION_COOKIE, session.token(), lifetime, uri);
    }

    static NewCookie signInNonce(String nonce, UriInfo uri) {
        return cookie(ConsoleSessions.SIGN_IN_COOKIE, nonce, SIGN_IN_FORM_LIFETIME, uri);
    }

    static NewCookie cleared(String name, UriInfo uri) {
        return cookie(name, "", Duration.ZERO, uri);
    }

    private static NewCookie cookie(String name, String value, Duration lifetime, UriInfo uri) {
        long seconds = Math.max(0, lifetime.toSeconds());
        return new NewCookie.Builder(name).value(value).path(PATH)
                .maxAge((int) Math.min(Integer.MAX_VALUE, seconds))
                .expiry(Date.from(Instant.now().plusSeconds(seconds)))
                .httpOnly(true)
                .secure("https".equalsIgnoreCase(uri.getRequestUri().getScheme()))
                .sameSite(NewCookie.SameSite.STRICT)
                .build();
    }
}
