package dev.tickler.infrai;

/**
 * Every Infrai answer: {"ok": true, "data": …} or {"ok": false, "error": {code, message}}
 * (docs/contract.md#the-queue-api).
 */
record InfraiEnvelope<T>(boolean ok, T data, Error error) {

    record Error(String code, String message) {
    }
}
