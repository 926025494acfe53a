package dev.tickler.http;

import java.util.regex.Pattern;

/**
 * The push subscription's path (docs/contract.md#push-receiver), spelled here once: the route the receiver serves, the
 * URL a subscription registers, and how a path is recognised and logged without its secret token. (The access log's
 * exclusion in application.properties is the one other spelling, a configuration value.)
 */
public final class PushPath {

    /** The route, as the REST layer and the traces name it. */
    public static final String TEMPLATE = "/q/{token}/reminders";

    private static final String TOKEN = "{token}";
    private static final String BEFORE = TEMPLATE.substring(0, TEMPLATE.indexOf(TOKEN));
    private static final String AFTER = TEMPLATE.substring(TEMPLATE.indexOf(TOKEN) + TOKEN.length());
    private static final Pattern ANY_TOKEN = Pattern.compile(Pattern.quote(BEFORE) + "[^/?#]+" + Pattern.quote(AFTER)
            + "/?");

    private PushPath() {
    }

    /** The path of one token. */
    public static String of(String token) {
        return BEFORE + token + AFTER;
    }

    /** Whether a request path is a push path, whatever its token. */
    public static boolean matches(String path) {
        return path != null && ANY_TOKEN.matcher(path).matches();
    }

    /** The path with any push token replaced by "{token}", so it can be logged. */
    public static String redacted(String path) {
        return path == null ? null : ANY_TOKEN.matcher(path).replaceAll(TEMPLATE);
    }
}
