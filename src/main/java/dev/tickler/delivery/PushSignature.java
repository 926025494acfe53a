package dev.tickler.delivery;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.HexFormat;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * HMAC-SHA256 (RFC 2104) of the raw pushed body, hex, optionally prefixed "sha256=" (docs/contract.md#push-receiver).
 */
final class PushSignature {

    private static final String ALGORITHM = "HmacSHA256";
    private static final String PREFIX = "sha256=";

    private final SecretKeySpec key;

    PushSignature(String secret) {
        this.key = new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), ALGORITHM);
    }

    boolean matches(byte[] body, String header) {
        if (header == null) {
            return false;
        }
        String hex = header.trim();
        if (hex.regionMatches(true, 0, PREFIX, 0, PREFIX.length())) {
            hex = hex.substring(PREFIX.length());
        }
        byte[] given;
        try {
            given = HexFormat.of().parseHex(hex);
        } catch (IllegalArgumentException notHex) {
            return false;
        }
        return MessageDigest.isEqual(sign(body), given);
    }

    byte[] sign(byte[] body) {
        try {
            Mac mac = Mac.getInstance(ALGORITHM);
            mac.init(key);
            return mac.doFinal(body);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is part of every Java runtime", e);
        }
    }
}
