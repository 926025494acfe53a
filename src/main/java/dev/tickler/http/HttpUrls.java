package dev.tickler.http;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Optional;

/** The endpoints Tickler calls, as its settings give them: the notifier's and the tenants' callback URLs. */
public final class HttpUrls {

    private HttpUrls() {
    }

    /** The URL when it is an absolute http or https URL with a host; empty for anything else. */
    public static Optional<URI> absoluteHttp(String url) {
        try {
            URI uri = new URI(url);
            if (("http".equalsIgnoreCase(uri.getScheme()) || "https".equalsIgnoreCase(uri.getScheme()))
                    && uri.getHost() != null) {
                return Optional.of(uri);
            }
        } catch (URISyntaxException notAUri) {
            // not one
        }
        return Optional.empty();
    }
}
