package dev.tickler.infrai;

/** Every Infrai answer: {"ok": true, "data": …} or {"ok": false, "error": {code, message}} (SPEC §7). */
record InfraiEnvelope<T>(boolean ok, T data, Error error) {

    record Error(String code, String message) {
    }
}
