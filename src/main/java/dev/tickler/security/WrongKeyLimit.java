package dev.tickler.security;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.inject.Singleton;

import org.jboss.logging.Logger;

import dev.tickler.config.TicklerConfig;

/**
 * Keys cannot be guessed at speed (docs/operating.md, "Wrong keys"): each client address (as {@link ClientAddresses}
 * names it) may send {@code tickler.api.wrong-keys-per-minute} wrong keys, bearer keys on /v1 and console sign-ins
 * together, within any minute. Past that, every key it sends, right or wrong, is answered 429 without being looked at,
 * until its oldest wrong key of the minute is a minute old; a right key would otherwise tell a guesser it was right.
 * Other addresses are not affected. Kept in memory, per instance.
 */
@Singleton
public class WrongKeyLimit {

    static final Duration WINDOW = Duration.ofMinutes(1);
    /** Addresses remembered at once; past it, new addresses share one count, so memory stays bounded. */
    static final int MAX_ADDRESSES = 10_000;
    static final String UNTRACKED = "addresses beyond the first " + MAX_ADDRESSES;

    private static final Logger LOG = Logger.getLogger(WrongKeyLimit.class);

    /** The instants of one address's latest wrong keys, oldest first, at most the limit of them. */
    private static final class WrongKeys {
        private final ArrayDeque<Instant> times = new ArrayDeque<>();

        synchronized Instant add(Instant now, int limit) {
            times.addLast(now);
            while (times.size() > limit) {
                times.removeFirst();
            }
            return times.size() == limit ? times.peekFirst() : null;
        }

        /** The instant from which another key may be looked at: null when one may be now. */
        synchronized Instant blockedUntil(Instant now, int limit) {
            if (times.size() < limit) {
                return null;
            }
            Instant until = times.peekFirst().plus(WINDOW);
            return now.isBefore(until) ? until : null;
        }

        synchronized boolean forgotten(Instant now) {
            return times.isEmpty() || !now.isBefore(times.peekLast().plus(WINDOW));
        }
    }

    private final ConcurrentHashMap<String, WrongKeys> byAddress = new ConcurrentHashMap<>();
    private final int limit;
    private final Clock clock;

    public WrongKeyLimit(TicklerConfig config, Clock clock) {
        this.limit = Math.max(1, config.api().wrongKeysPerMinute());
        this.clock = clock;
    }

    /** How long this address must wait before a key of its is looked at again; empty when it may try now. */
    public Optional<Duration> wait(String address) {
        WrongKeys wrongKeys = byAddress.get(address);
        if (wrongKeys == null && byAddress.size() >= MAX_ADDRESSES) {
            wrongKeys = byAddress.get(UNTRACKED);
        }
        if (wrongKeys == null) {
            return Optional.empty();
        }
        Instant now = clock.instant();
        Instant until = wrongKeys.blockedUntil(now, limit);
        return until == null ? Optional.empty() : Optional.of(Duration.between(now, until));
    }

    /** Counts a wrong key from this address. */
    public void wrongKey(String address) {
        Instant now = clock.instant();
        String counted = address;
        if (!byAddress.containsKey(address) && byAddress.size() >= MAX_ADDRESSES) {
            byAddress.entrySet().removeIf(entry -> entry.getValue().forgotten(now));
            if (byAddress.size() >= MAX_ADDRESSES) {
                counted = UNTRACKED;
            }
        }
        Instant oldest = byAddress.computeIfAbsent(counted, ignored -> new WrongKeys()).add(now, limit);
        if (oldest != null && now.isBefore(oldest.plus(WINDOW))) {
            LOG.warnf("%d wrong keys from %s within a minute: its keys are refused with 429 until %s", limit,
                    counted, oldest.plus(WINDOW));
        }
    }

    /** Retry-After in whole seconds, rounded up, at least 1. */
    public static long retryAfterSeconds(Duration wait) {
        return Math.max(1, wait.getNano() == 0 ? wait.getSeconds() : wait.getSeconds() + 1);
    }
}
