package dev.tickler.emulator;

/** An error answer of the API; {@code retryAfterSeconds} is set only for rate limiting. */
record ApiError(int status, String code, String message, Integer retryAfterSeconds) {

    static ApiError invalidRequest(String message) {
        return new ApiError(400, "INVALID_REQUEST", message, null);
    }

    static ApiError unauthorized() {
        return new ApiError(401, "UNAUTHORIZED", "missing or invalid bearer API key", null);
    }

    static ApiError notFound(String message) {
        return new ApiError(404, "NOT_FOUND", message, null);
    }

    static ApiError notInFlight(String messageId) {
        return new ApiError(409, "QUEUE_MESSAGE_NOT_IN_FLIGHT", "message " + messageId + " is not in flight", null);
    }

    static ApiError rateLimited(int retryAfterSeconds) {
        return new ApiError(429, "RATE_LIMITED", "rate limit exceeded, retry after " + retryAfterSeconds + " s", retryAfterSeconds);
    }

    static ApiError internal(String message) {
        return new ApiError(500, "INTERNAL", message, null);
    }
}
