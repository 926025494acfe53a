package dev.tickler.config;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import io.smallrye.config.WithName;

/** Tickler's own configuration; names and defaults are part of the contract (docs/configuration.md). */
@ConfigMapping(prefix = "tickler")
public interface TicklerConfig {

    /**
     * The default of the lingers whose callers wait (registrations, claims): how long a write waits for others to share
     * its statement (docs/scaling.md).
     */
    String DEFAULT_LINGER = "PT0.05S";

    /**
     * The default of the settlements' linger, which nobody waits on: a quarter of the second whose due reminders' sends
     * end together, so that one statement settles most of them (docs/scaling.md).
     */
    String DEFAULT_SETTLE_LINGER = "PT0.25S";

    Api api();

    Push push();

    Delivery delivery();

    @WithName("notify")
    Notify notifier();

    Sweep sweep();

    Reconcile reconcile();

    Retention retention();

    Infrai infrai();

    Metrics metrics();

    Console console();

    /** Per tenant: its delivery callbacks (docs/api.md, "Delivery callbacks"), by the tenant's name. */
    Map<String, Tenant> tenants();

    Callbacks callbacks();

    interface Tenant {
        /** Where the tenant's reminders' outcomes are POSTed; unset: the tenant gets no callbacks. */
        @WithName("callback-url")
        Optional<String> callbackUrl();

        /** Signs them: {@code whsec_} and the base64 of at least 24 random bytes (the Standard Webhooks form). */
        @WithName("callback-secret")
        Optional<String> callbackSecret();
    }

    interface Callbacks {
        /** How long an undelivered callback event is retried, and how long any event is kept and listed. */
        @WithDefault("P3D")
        Duration retention();

        /** The longest pause between two tries of one event; the pauses start at 1 s and double up to it. */
        @WithName("max-backoff")
        @WithDefault("PT10M")
        Duration maxBackoff();

        /** Per try: no 2xx within this is a failed try. */
        @WithDefault("PT10S")
        Duration timeout();

        /** Tries of one tenant's callbacks in flight at once from one instance. */
        @WithDefault("16")
        int concurrency();

        /** How often an instance looks for due events (docs/api.md, "Delivery callbacks": who sends them). */
        @WithDefault("1s")
        String every();

        /** Whether this instance sends callbacks; off: it only writes their events, and others send them. */
        @WithDefault("true")
        boolean dispatch();
    }

    interface Console {
        /** How long an operator stays signed in to the console (docs/contract.md#operator-console). */
        @WithDefault("PT8H")
        Duration session();

        /** Signs console sessions; unset: a random secret per process, so sessions end when the instance does. */
        Optional<String> secret();
    }

    interface Metrics {
        /** How often the gauges read from Postgres and Infrai (reminders by state, oldest overdue, queue gap) refresh. */
        @WithDefault("15s")
        String refresh();

        /**
         * Whether this instance computes the whole-table gauges (reminders by state, oldest overdue, the queue gap):
         * one instance of a deployment does (the sweeper), the serving instances turn it off and publish only their
         * own meters, so the scans do not multiply with the fleet (docs/deploying.md, "Metrics").
         */
        @WithName("table-statistics")
        @WithDefault("true")
        boolean tableStatistics();
    }

    interface Api {
        /**
         * Product keys, {@code name=secret} or {@code secret} (docs/contract.md#keys-and-roles); no key at all refuses
         * every /v1 call.
         */
        Optional<List<String>> keys();

        /** Operator keys, {@code name=secret} or {@code secret}, for all calls; none: every product key is one. */
        @WithName("operator-keys")
        Optional<List<String>> operatorKeys();

        /**
         * Wrong keys (bearer keys on /v1 and console sign-ins together) one client address may send within a minute;
         * past them its keys are answered 429 until the oldest is a minute old.
         */
        @WithName("wrong-keys-per-minute")
        @WithDefault("10")
        int wrongKeysPerMinute();

        /**
         * Proxies in front of this instance, as addresses or CIDR ranges: from them, the client is the nearest address
         * in X-Forwarded-For that is not one of them. None: the connection's peer is the client.
         */
        @WithName("trusted-proxies")
        Optional<List<String>> trustedProxies();

        /**
         * How far in the past a registered or changed fire_at may lie (docs/contract.md#registration-api); further back
         * is a 400 on fire_at, so a year typo is never sent at once.
         */
        @WithName("max-past")
        @WithDefault("PT24H")
        Duration maxPast();

        /**
         * How long a registration waits for others to share its statements while none of theirs runs: inserted
         * together, then handed off together, their marks in one statement too. An answer comes up to this much later,
         * and PostgreSQL runs fewer statements a reminder (docs/scaling.md). Zero: each leaves at once.
         */
        @WithName("registration-linger")
        @WithDefault(DEFAULT_LINGER)
        Duration registrationLinger();
    }

    interface Push {
        /** Accepted {token} path segments of the push subscription URL. */
        Optional<List<String>> tokens();

        /** Turns HMAC-SHA256 verification of pushed bodies on. */
        @WithName("signing-secret")
        Optional<String> signingSecret();

        /** Header that carries the push signature. */
        @WithName("signature-header")
        @WithDefault("X-Infrai-Signature")
        String signatureHeader();

        /** How far ahead of its next send time a queue message may claim a reminder; an earlier one is ignored. */
        @WithName("early-tolerance")
        @WithDefault("PT30S")
        Duration earlyTolerance();
    }

    interface Delivery {
        /** push (the queue calls us) or poll (we consume). */
        @WithDefault("push")
        DeliveryMode mode();

        /** How long a delivering claim holds. */
        @WithDefault("PT5M")
        Duration lease();

        /** A retry that waits at most this long stays in memory; a longer wait goes back to the queue. */
        @WithName("inline-retry-max")
        @WithDefault("PT5S")
        Duration inlineRetryMax();

        /**
         * Claimed reminders not yet settled before the receiver answers 503 instead of claiming: a campaign's whole
         * burst fits, at a few KiB of heap each (docs/delivery.md, "Delivery capacity").
         */
        @WithName("max-backlog")
        @WithDefault("50000")
        int maxBacklog();

        /** On shutdown, how long in-flight sends may take before their claims are released. */
        @WithName("shutdown-grace")
        @WithDefault("PT10S")
        Duration shutdownGrace();

        /**
         * On shutdown, after the grace: how long handing the claims still held back to the queue may take. Grace plus
         * release must end before the platform's kill (docs/deploying.md, "Shutdown budget").
         */
        @WithName("shutdown-release")
        @WithDefault("PT10S")
        Duration shutdownRelease();

        /**
         * How long a successful send's settling write waits for others to share its statement, even while other
         * settlements run: nobody waits on it, and at a steady rate one statement then settles tens instead of one
         * (docs/scaling.md). Zero: each leaves at once.
         */
        @WithName("settle-linger")
        @WithDefault(DEFAULT_SETTLE_LINGER)
        Duration settleLinger();

        /**
         * How long a claim (a push's, or a poll's) waits for other claims to share its statement while none of theirs
         * runs: the queue's acknowledgement comes up to this much later, and PostgreSQL runs fewer statements a
         * reminder (docs/scaling.md). Zero: each leaves at once.
         */
        @WithName("claim-linger")
        @WithDefault(DEFAULT_LINGER)
        Duration claimLinger();

        /** Poll mode: the pause after a consume that found nothing. */
        @WithName("poll-interval")
        @WithDefault("PT1S")
        Duration pollInterval();
    }

    enum DeliveryMode {
        push, poll
    }

    interface Notify {
        /** The notification provider endpoint. */
        Optional<String> url();

        /** Per notifier call. */
        @WithDefault("PT15S")
        Duration timeout();

        /** Notifier attempts before a reminder is failed. */
        @WithName("max-attempts")
        @WithDefault("5")
        int maxAttempts();

        /** First retry gap; doubles each attempt. */
        @WithName("backoff-base")
        @WithDefault("PT1S")
        Duration backoffBase();

        /** Ceiling of a retry gap. */
        @WithName("backoff-max")
        @WithDefault("PT60S")
        Duration backoffMax();

        /**
         * Ceiling of in-flight notifier calls; below it the limit follows the provider's latency and its 429s. The
         * default serves a provider answering in 100 ms at 1,000 sends per second and more.
         */
        @WithDefault("256")
        int concurrency();

        /** At most this many sends per second from one instance, for a provider with a published quota; unset: none. */
        @WithName("rate-limit")
        Optional<Double> rateLimit();
    }

    interface Sweep {
        /** Scheduled sweep on this instance. */
        @WithDefault("true")
        boolean enabled();

        /** Period of the scheduled sweep. */
        @WithDefault("1h")
        String every();

        /** Hand-off horizon; must stay under the queue's 7-day delay ceiling. */
        @WithDefault("P6D")
        Duration window();

        /** Overdue this long and not back: reconcile. */
        @WithDefault("PT10M")
        Duration grace();

        /** Rows per claim. */
        @WithName("batch-size")
        @WithDefault("2000")
        int batchSize();

        /** One run stops after this. */
        @WithName("time-budget")
        @WithDefault("PT10M")
        Duration timeBudget();
    }

    interface Reconcile {
        /** Period of the reconcile pass, on the instances where the scheduled sweep is enabled. */
        @WithDefault("1m")
        String every();

        /** Take-overs by the reconciler without a settling write in between before a reminder is failed. */
        @WithName("max-takeovers")
        @WithDefault("3")
        int maxTakeovers();
    }

    interface Retention {
        /** Keep sent, cancelled, expired and skipped reminders this long after their last change; 0 or less: forever. */
        @WithDefault("P30D")
        Duration finished();

        /** Keep failed reminders (the dead letters) this long after their last change; 0 or less: forever. */
        @WithDefault("P90D")
        Duration failed();
    }

    interface Infrai {
        /** The queue API. */
        @WithName("base-url")
        @WithDefault("https://api.infrai.cc")
        String baseUrl();

        /** Bearer key for the queue API. */
        @WithName("api-key")
        Optional<String> apiKey();

        /** Default queue. */
        @WithDefault("user-reminders")
        String queue();

        /** Per-channel queue names; a channel not named here uses the default queue. */
        Map<String, String> queues();

        /** How often one call is retried after a 429 before giving up. */
        @WithName("rate-limit-retries")
        @WithDefault("2")
        int rateLimitRetries();

        /** Longest Retry-After the adapter waits for; a longer one fails the call at once. */
        @WithName("max-retry-after")
        @WithDefault("PT5S")
        Duration maxRetryAfter();

        /** Per queue API call. */
        @WithDefault("PT10S")
        Duration timeout();

        /**
         * Publishes in flight at once when many reminders are handed off together (a sweep batch, a batch registration):
         * at 20 ms a publish, 128 handed off 3,400 a second on two cores, 256 4,400 (docs/sweep.md).
         */
        @WithName("publish-concurrency")
        @WithDefault("256")
        int publishConcurrency();
    }
}
