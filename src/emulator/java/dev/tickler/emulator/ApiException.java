package dev.tickler.emulator;

/** Ends the handling of a request with an error answer. */
final class ApiException extends RuntimeException {

    private final ApiError error;

    ApiException(ApiError error) {
        super(error.message(), null, false, false);
        this.error = error;
    }

    ApiError error() {
        return error;
    }
}
