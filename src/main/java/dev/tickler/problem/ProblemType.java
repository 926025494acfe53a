package dev.tickler.problem;

/**
 * Every kind of problem Tickler answers with, so each has one type URI, title and status (docs/api.md, "Problem
 * types"). A client branches on the type: each conflict (409) has its own, so that one that may be retried is told
 * from one that never succeeds.
 */
public enum ProblemType {
    VALIDATION("validation", "Request is not valid", 400),
    MALFORMED_JSON("malformed-json", "Body is not valid JSON", 400),
    BAD_REQUEST("bad-request", "Not a well-formed HTTP request", 400),
    UNAUTHORIZED("unauthorized", "Missing or unknown API key", 401),
    BAD_SIGNATURE("bad-signature", "Signature missing or not valid", 401),
    FORBIDDEN("forbidden", "Not allowed with this API key", 403),
    UNREADABLE_MESSAGE("unreadable-message", "Not a Tickler queue message", 400),
    NOT_FOUND("not-found", "Not found", 404),
    METHOD_NOT_ALLOWED("method-not-allowed", "Method not allowed", 405),
    NOT_ACCEPTABLE("not-acceptable", "Not acceptable", 406),
    REMINDER_STATE("reminder-state", "Not possible in the reminder's state", 409),
    FIRE_TIME_TAKEN("fire-time-taken", "Another reminder of this user and template fires then", 409),
    KEY_DELIVERING("key-delivering", "The key's reminder is being delivered", 409),
    SCHEDULE_TAKEN("schedule-taken", "Another schedule of this user and template has this rule, start and zone", 409),
    SCHEDULE_ENDED("schedule-ended", "The schedule has ended", 409),
    SCHEDULE_BEHIND("schedule-behind", "The schedule is too far behind to preview", 409),
    CONCURRENT_CHANGE("concurrent-change", "Changed by another request meanwhile; try again", 409),
    REGISTRATION_DIFFERS("registration-differs", "Registered before with a different body", 409),
    REGISTRATION_CANCELLED("registration-cancelled", "Registered before and cancelled since", 409),
    PAYLOAD_TOO_LARGE("payload-too-large", "Body too large", 413),
    URI_TOO_LONG("uri-too-long", "URI too long", 414),
    UNSUPPORTED_MEDIA_TYPE("unsupported-media-type", "Unsupported media type", 415),
    TOO_MANY_REQUESTS("too-many-requests", "Too many requests", 429),
    HEADERS_TOO_LARGE("headers-too-large", "Request headers too large", 431),
    INTERNAL("internal", "Internal error", 500),
    UNAVAILABLE("unavailable", "Service unavailable", 503);

    private final String slug;
    private final String title;
    private final int status;

    ProblemType(String slug, String title, int status) {
        this.slug = slug;
        this.title = title;
        this.status = status;
    }

    public String slug() {
        return slug;
    }

    public String title() {
        return title;
    }

    public int status() {
        return status;
    }
}
