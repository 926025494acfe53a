package dev.tickler.console.rest;

import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.Locale;

import jakarta.ws.rs.core.HttpHeaders;
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

    static NewCookie session(Session session, Duration lifetime, boolean overHttps) {
        return cookie(ConsoleSessions.SESSION_COOKIE, session.token(), lifetime, overHttps);
    }

    static NewCookie signInNonce(String nonce, boolean overHttps) {
        return cookie(ConsoleSessions.SIGN_IN_COOKIE, nonce, SIGN_IN_FORM_LIFETIME, overHttps);
    }

    static NewCookie cleared(String name, boolean overHttps) {
        return cookie(name, "", Duration.ZERO, overHttps);
    }

    /**
     * Whether the browser reached us over HTTPS, here or at the TLS-terminating proxy in front. A forged forwarded
     * header can only add the Secure flag, which costs the forger their own cookie.
     */
    static boolean overHttps(UriInfo uri, HttpHeaders headers) {
        String forwardedProto = headers.getHeaderString("X-Forwarded-Proto");
        String forwarded = headers.getHeaderString("Forwarded");
        return "https".equalsIgnoreCase(uri.getRequestUri().getScheme())
                || forwardedProto != null && forwardedProto.split(",")[0].strip().equalsIgnoreCase("https")
                || forwarded != null && forwarded.toLowerCase(Locale.ROOT).contains("proto=https");
    }

    private static NewCookie cookie(String name, String value, Duration lifetime, boolean overHttps) {
        long seconds = Math.max(0, lifetime.toSeconds());
        return new NewCookie.Builder(name).value(value).path(PATH)
                .maxAge((int) Math.min(Integer.MAX_VALUE, seconds))
                .expiry(Date.from(Instant.now().plusSeconds(seconds)))
                .httpOnly(true)
                .secure(overHttps)
                .sameSite(NewCookie.SameSite.STRICT)
                .build();
    }
}
