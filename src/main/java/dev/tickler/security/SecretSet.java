package dev.tickler.security;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Collection;
import java.util.List;

/** A set of secrets (API keys, push tokens) whose membership test takes the same time whatever it is asked. */
public final class SecretSet {

    private final List<byte[]> digests;

    public SecretSet(Collection<String> secrets) {
        this.digests = secrets.stream().filter(secret -> !secret.isBlank()).map(SecretSet::sha256).toList();
    }

    public boolean contains(String candidate) {
        return indexOf(candidate) >= 0;
    }

    /** The position of the candidate among the non-blank secrets given, or -1. */
    public int indexOf(String candidate) {
        if (candidate == null) {
            return -1;
        }
        // Digests share one length, so isEqual takes the same time for each, and every secret is compared.
        byte[] digest = sha256(candidate);
        int found = -1;
        for (int i = 0; i < digests.size(); i++) {
            if (MessageDigest.isEqual(digest, digests.get(i))) {
                found = i;
            }
        }
        return found;
    }

    private static byte[] sha256(String value) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(value.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every Java runtime", e);
        }
    }
}
