package dev.tickler.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.temporal.ChronoUnit;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

import jakarta.inject.Inject;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.RandomGenerator;
import net.jqwik.api.sessions.JqwikSession;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.json.JsonWriteFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import dev.tickler.testing.Api;
import dev.tickler.testing.Database;
import dev.tickler.testing.InfraiEmulatorResource;

/**
 * Thousands of generated requests across /v1 (reminders, keyed reminders, cancel by filter and quiet hours) and the push path: broken and truncated JSON, deep nesting, huge
 * numbers, wrong types, Unicode edge cases, extreme dates and durations, wrong content types. Whatever comes in,
 * nothing answers 5xx or 3xx, every 4xx with a body is a problem document that names no class and holds no stack
 * trace, and a refused request creates and changes no row. A request that is accepted (some generated ones are
 * valid after all) gets a well-formed answer that says what it did, and what is stored is what was sent. The seed
 * is printed; -Dbad-input.seed=N replays a run.
 */
@QuarkusTest
class GeneratedBadInputTest {

    private static final int REQUESTS = 2_400;
    private static final String PUSH_PATH = "/q/" + InfraiEmulatorResource.PUSH_TOKEN + "/reminders";
    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    /** One generated request; the body is raw bytes so it can be anything, including not UTF-8. */
    record Generated(String method, String path, String contentType, byte[] body, boolean targetsFixture) {

        @Override
        public String toString() {
            String text = body == null ? "" : new String(body, StandardCharsets.UTF_8);
            return method + " " + path + " [" + contentType + "] "
                    + (text.length() > 300 ? text.substring(0, 300) + "…(" + text.length() + " chars)" : text);
        }
    }

    /** The parts of a row a refused request must leave alone, and the generated user's quiet hours, as JSON text. */
    record RowState(long count, long maxId, String fixture, String quietHours) {
    }

    /** A reminder as an answer shows it and as its row holds it: what a registration or a change decides. */
    record Kept(Object userId, Object channel, Object template, Instant fireAt, Object tz, Object data,
            Instant expiresAt, int version) {

        static Kept of(JsonObject reminder) {
            return new Kept(reminder.getValue("user_id"), reminder.getValue("channel"), reminder.getValue("template"),
                    instant(reminder.getValue("fire_at")), reminder.getValue("tz"), reminder.getValue("data"),
                    instant(reminder.getValue("expires_at")), reminder.getInteger("version"));
        }
    }

    /** Every field of the one reminder representation (docs/contract.md#registration-api). */
    private static final Set<String> REPRESENTATION = Set.of("id", "tenant", "user_id", "channel", "template", "fire_at", "tz",
            "fire_at_local", "data", "state", "version", "attempts", "message_id", "last_error", "expires_at",
            "created_at", "updated_at", "sent_at", "urgent", "schedule_id", "occurrence", "key", "tags");
    private static final List<String> DAYS = List.of("mon", "tue", "wed", "thu", "fri", "sat", "sun");
    private static final List<String> CHANNELS = List.of("email", "sms", "push");
    private static final String REMINDER_AS_JSON = "json_build_object('user_id', user_id, 'channel', channel,"
            + " 'template', template, 'fire_at', fire_at, 'tz', tz, 'data', data, 'expires_at', expires_at,"
            + " 'version', version, 'state', state, 'handoff', handoff, 'attempts', attempts, 'updated_at', updated_at)::text";

    private static final String BY_KEY = "/v1/reminders/by-key/";
    private static final String CANCEL_PATH = "/v1/reminders/cancel";

    private static final String QUIET_USER = "u_generated_quiet_hours";
    private static final String QUIET_PATH = "/v1/users/" + QUIET_USER + "/quiet-hours";

    @Inject
    Database database;

    private long fixtureId;

    @Test
    void noGeneratedRequestGetsA5xxOrAnythingButAProblemOrWritesWhenRefused() {
        long seed = Long.getLong("bad-input.seed", System.nanoTime());
        System.out.println("generated bad input: seed " + seed + " (replay with -Dbad-input.seed=" + seed + ")");
        fixtureId = Api.createdId(Api.reminderAt(Instant.now().plus(Duration.ofDays(3))));
        JqwikSession.start(String.valueOf(seed));
        try {
            run(requests().generator(1000), new Random(seed));
        } finally {
            JqwikSession.finish();
        }
    }

    private void run(RandomGenerator<Generated> generator, Random random) {
        Map<String, Integer> statuses = new HashMap<>();
        for (int i = 0; i < REQUESTS; i++) {
            Generated request = generator.next(random).value();
            RowState before = rowState();
            Answer response = send(request);
            int status = response.status();
            statuses.merge(status / 100 + "xx", 1, Integer::sum);

            assertThat(status).as("request %d: %s answered %s", i, request, response.body()).isLessThan(500);
            if (status >= 400) {
                assertIsProblem(request, response);
                assertThat(rowState()).as("request %d was refused with %d but wrote: %s", i, status, request)
                        .isEqualTo(before);
            } else {
                assertThat(status).as("request %d: %s answered %s", i, request, response.body()).isBetween(200, 299);
                assertAccepted(String.format("request %d: %s answered %d %s", i, request, status, response.body()),
                        request, response, before);
            }
        }
        System.out.println("generated bad input: " + REQUESTS + " requests, answers by class " + statuses);
        assertThat(statuses.getOrDefault("4xx", 0)).isGreaterThan(REQUESTS / 2);
    }

    /** One round trip: the suite reads this before and after each of its thousands of requests. */
    private RowState rowState() {
        String[] parts = database.text("SELECT concat_ws(E'\\n',"
                + " (SELECT count(*) FROM reminders), (SELECT coalesce(max(id), 0) FROM reminders),"
                + " coalesce((SELECT " + REMINDER_AS_JSON + " FROM reminders WHERE id = $1), ''),"
                + " coalesce((SELECT json_build_object('tz', tz, 'windows', windows, 'policy', policy,"
                + " 'updated_at', updated_at)::text FROM quiet_hours WHERE user_id = $2), ''))", fixtureId, QUIET_USER)
                .split("\n", 4);
        return new RowState(Long.parseLong(parts[0]), Long.parseLong(parts[1]), parts[2], parts[3]);
    }

    /** The JDK client sends bytes and headers as given, where a convenience client would re-encode them. */
    private static Answer send(Generated request) {
        HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + RestAssured.port
                        + request.path()))
                .header("Authorization", "Bearer " + Api.API_KEY)
                .timeout(Duration.ofSeconds(20))
                .method(request.method(), request.body() == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofByteArray(request.body()));
        if (request.contentType() != null) {
            builder.header("Content-Type", request.contentType());
        }
        try {
            HttpResponse<String> response = CLIENT.send(builder.build(), HttpResponse.BodyHandlers.ofString());
            return new Answer(response.statusCode(), response.headers().firstValue("Content-Type").orElse(""),
                    response.headers().firstValue("Location").orElse(null), response.body());
        } catch (IOException e) {
            throw new UncheckedIOException("no answer to " + request, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    record Answer(int status, String contentType, String location, String body) {
    }

    /**
     * An accepted request did what it said, and only that: registered what was sent (or answered the same
     * registration again), listed only what was asked for, changed the fixture as asked, stored the quiet hours sent,
     * or ignored a push that names no reminder. The answer is checked against the request, the row against the answer.
     */
    private void assertAccepted(String what, Generated request, Answer response, RowState before) {
        assertThat(response.contentType()).as(what).startsWith("application/json");
        JsonObject answer = jsonObject(what, response.body());
        String method = request.method();
        String path = request.path();
        if (method.equals("POST") && path.equals("/v1/reminders")) {
            assertRegistered(what, sent(what, request), response, answer, before, false);
        } else if (method.equals("PUT") && path.startsWith(BY_KEY)) {
            // every generated key is new, so an accepted PUT creates its reminder under the path's key
            assertThat(response.status()).as(what).isEqualTo(201);
            assertThat(answer.getString("key")).as(what).isEqualTo(path.substring(BY_KEY.length()));
            assertRegistered(what, sent(what, request), response, answer, before, true);
        } else if (method.equals("POST") && path.equals(CANCEL_PATH)) {
            assertCancelAnswered(what, answer, before);
        } else if (method.equals("GET") && path.startsWith("/v1/reminders?")) {
            assertListed(what, path, answer, before);
        } else if (method.equals("PATCH") && path.equals("/v1/reminders/" + fixtureId)) {
            assertFixtureChanged(what, sent(what, request), answer, before);
        } else if (method.equals("PUT") && path.equals(QUIET_PATH)) {
            assertQuietHoursStored(what, sent(what, request), answer);
        } else if (method.equals("POST") && path.equals(PUSH_PATH)) {
            assertPushIgnored(what, sent(what, request), answer, before);
        } else {
            // odd ids name no reminder, and the fixture (on a channel that is not pushed) is never failed
            fail("%s: no request of this kind can be valid", what);
        }
    }

    /** {@code keyedByPath}: a PUT by key, whose reminder is named by the path's key whatever the body's says. */
    private void assertRegistered(String what, JsonObject sent, Answer response, JsonObject answer, RowState before,
            boolean keyedByPath) {
        assertIsReminder(what, answer);
        long id = answer.getLong("id");
        Kept kept = Kept.of(answer);
        assertThat(kept.userId()).as(what).isEqualTo(sent.getValue("user_id"));
        assertThat(kept.template()).as(what).isEqualTo(sent.getValue("template"));
        assertThat(kept.fireAt()).as(what).isEqualTo(fireAtOf(sent, orElse(sent.getValue("tz"), "UTC")));
        if (sent.containsKey("key") && !keyedByPath) {
            assertThat(answer.getValue("key")).as(what).isEqualTo(sent.getValue("key"));
        }
        // tags are a set: repeats count once, the first place of each is kept
        JsonArray tags = sent.getValue("tags") == null ? new JsonArray() : sent.getJsonArray("tags");
        assertThat(answer.getJsonArray("tags")).as(what).isEqualTo(new JsonArray(tags.stream().distinct().toList()));
        RowState after = rowState();
        if (response.status() == 201) {
            assertThat(response.location()).as(what).endsWith("/v1/reminders/" + id);
            assertThat(kept).as(what).isEqualTo(new Kept(sent.getValue("user_id"), sent.getValue("channel"),
                    sent.getValue("template"), kept.fireAt(), orElse(sent.getValue("tz"), "UTC"),
                    orElse(sent.getValue("data"), new JsonObject()), expiresAt(kept.fireAt(), sent.getValue("expires_after")),
                    0));
            assertThat(answer.getString("state")).as(what).isIn("pending", "handed_off");
            assertThat(answer.getInteger("attempts")).as(what).isZero();
            assertThat(answer.getBoolean("urgent")).as(what).isFalse();
            assertThat(List.of("last_error", "sent_at", "schedule_id", "occurrence")).as(what)
                    .allSatisfy(field -> assertThat(answer.getValue(field)).as("%s: %s", what, field).isNull());
            assertThat(after.count()).as(what + ": one row more").isEqualTo(before.count() + 1);
            assertThat(id).as(what + ": a new id").isGreaterThan(before.maxId());
        } else {
            // the same (user_id, template, fire_at) again: the existing reminder, unchanged, and nothing created
            assertThat(response.status()).as(what).isEqualTo(200);
            assertThat(id).as(what + ": an existing id").isLessThanOrEqualTo(before.maxId());
            assertThat(after.count()).as(what + ": no row more").isEqualTo(before.count());
        }
        assertThat(stored(id)).as(what + ": the stored row").isEqualTo(kept);
    }

    private void assertListed(String what, String path, JsonObject answer, RowState before) {
        assertThat(answer.fieldNames()).as(what).containsExactlyInAnyOrder("items", "next");
        assertThat(answer.getValue("next")).as(what).satisfiesAnyOf(next -> assertThat(next).isNull(),
                next -> assertThat(next).isInstanceOf(String.class));
        Map<String, String> query = new HashMap<>();
        for (String pair : path.substring(path.indexOf('?') + 1).split("&")) {
            int equals = pair.indexOf('=');
            String value = URLDecoder.decode(pair.substring(equals + 1), StandardCharsets.UTF_8);
            if (!value.isEmpty()) {
                // an empty parameter is an absent one
                query.put(pair.substring(0, equals), value);
            }
        }
        JsonArray items = answer.getJsonArray("items");
        assertThat(items.size()).as(what).isLessThanOrEqualTo(query.containsKey("limit")
                ? Integer.parseInt(query.get("limit")) : 50);
        Instant previousFireAt = Instant.MIN;
        long previousId = Long.MIN_VALUE;
        for (int i = 0; i < items.size(); i++) {
            JsonObject item = items.getJsonObject(i);
            assertIsReminder(what, item);
            assertThat(item.getValue("user_id")).as(what).isEqualTo(query.get("user_id"));
            if (query.containsKey("state")) {
                assertThat(item.getValue("state")).as(what).isEqualTo(query.get("state"));
            }
            if (query.containsKey("tag")) {
                assertThat(item.getJsonArray("tags")).as(what).contains(query.get("tag"));
            }
            Instant fireAt = instant(item.getValue("fire_at"));
            assertThat(fireAt.isAfter(previousFireAt) || fireAt.equals(previousFireAt) && item.getLong("id") > previousId)
                    .as(what + ": in fire_at, id order").isTrue();
            previousFireAt = fireAt;
            previousId = item.getLong("id");
        }
        assertThat(rowState()).as(what + ": a read writes nothing").isEqualTo(before);
    }

    /** The generator changes one field of the fixture at a time; null leaves it as it is. */
    private void assertFixtureChanged(String what, JsonObject sent, JsonObject answer, RowState before) {
        assertIsReminder(what, answer);
        assertThat(answer.getLong("id")).as(what).isEqualTo(fixtureId);
        assertThat(sent.fieldNames()).as(what).hasSize(1);
        Kept was = Kept.of(new JsonObject(before.fixture()));
        String field = sent.fieldNames().iterator().next();
        Object value = sent.getValue(field);
        Instant fireAt = was.fireAt();
        Object tz = was.tz();
        Object data = was.data();
        Instant expiresAt = was.expiresAt();
        switch (field) {
            case "fire_at", "local_time" -> {
                if (value != null) {
                    fireAt = fireAtOf(sent, was.tz());
                    // a moved reminder keeps its expiry window
                    expiresAt = was.expiresAt() == null ? null
                            : fireAt.plus(Duration.between(was.fireAt(), was.expiresAt()));
                }
            }
            case "tz" -> tz = orElse(value, was.tz());
            case "data" -> data = orElse(value, was.data());
            case "expires_after" -> expiresAt = value == null ? was.expiresAt() : expiresAt(fireAt, value);
            default -> fail("%s: accepted a change of %s", what, field);
        }
        Kept kept = Kept.of(answer);
        assertThat(kept).as(what).isEqualTo(new Kept(was.userId(), was.channel(), was.template(), fireAt, tz, data,
                expiresAt, was.version() + 1));
        assertThat(answer.getInteger("attempts")).as(what).isZero();
        assertThat(answer.getString("state")).as(what).isIn("pending", "handed_off");
        assertThat(stored(fixtureId)).as(what + ": the stored row").isEqualTo(kept);
    }

    private void assertQuietHoursStored(String what, JsonObject sent, JsonObject answer) {
        assertThat(answer.fieldNames()).as(what).containsExactlyInAnyOrder("tenant", "user_id", "tz", "windows",
                "policy", "updated_at");
        assertThat(answer.getValue("user_id")).as(what).isEqualTo(QUIET_USER);
        assertThat(answer.getValue("tz")).as(what).isEqualTo(sent.getValue("tz"));
        assertThat(answer.getValue("policy")).as(what).isEqualTo(orElse(sent.getValue("policy"), "defer"));
        JsonArray sentWindows = sent.getJsonArray("windows");
        JsonArray windows = answer.getJsonArray("windows");
        assertThat(windows.size()).as(what).isEqualTo(sentWindows.size());
        for (int i = 0; i < windows.size(); i++) {
            JsonObject asked = sentWindows.getJsonObject(i);
            // days and channels are sets, shown in the week's and the contract's order; absent means all
            assertThat(windows.getJsonObject(i)).as(what).isEqualTo(new JsonObject()
                    .put("days", inOrder(DAYS, asked.getValue("days")))
                    .put("start", asked.getValue("start"))
                    .put("end", asked.getValue("end"))
                    .put("channels", inOrder(CHANNELS, asked.getValue("channels"))));
        }
        JsonObject stored = new JsonObject(rowState().quietHours());
        assertThat(new JsonObject().put("tz", stored.getValue("tz")).put("windows", stored.getValue("windows"))
                .put("policy", stored.getValue("policy")).put("updated_at", instant(stored.getValue("updated_at"))))
                .as(what + ": the stored quiet hours")
                .isEqualTo(new JsonObject().put("tz", answer.getValue("tz")).put("windows", windows)
                        .put("policy", answer.getValue("policy")).put("updated_at", instant(answer.getValue("updated_at"))));
    }

    /**
     * An accepted cancel by filter answers its three figures; the generated filters name users of their own or of
     * other generated registrations, never the fixture's, and a cancel creates and deletes nothing.
     */
    private void assertCancelAnswered(String what, JsonObject answer, RowState before) {
        assertThat(answer.fieldNames()).as(what).containsExactlyInAnyOrder("cancelled", "delivering", "more");
        assertThat(answer.getLong("cancelled")).as(what).isNotNegative();
        assertThat(answer.getLong("delivering")).as(what).isNotNegative();
        assertThat(answer.getBoolean("more")).as(what).isFalse();
        assertThat(rowState()).as(what + ": a cancel neither creates nor deletes, nor touches the fixture")
                .isEqualTo(before);
    }

    /** Generated pushes name no reminder that exists: acknowledged, ignored as unknown, nothing written. */
    private void assertPushIgnored(String what, JsonObject sent, JsonObject answer, RowState before) {
        Object reminderId = pushedMessage(sent).getValue("reminder_id");
        assertThat(reminderId).as(what + ": an integer reminder_id").isInstanceOfAny(Integer.class, Long.class);
        assertThat(database.count("SELECT count(*) FROM reminders WHERE id = $1", ((Number) reminderId).longValue()))
                .as(what + ": the generator names no reminder that exists").isZero();
        assertThat(answer).as(what).isEqualTo(new JsonObject().put("result", "ignored").put("reason", "unknown"));
        assertThat(rowState()).as(what + ": an ignored push writes nothing").isEqualTo(before);
    }

    /** The message as the contract reads it: the body itself, or held under payload or body, as an object or text. */
    private static JsonObject pushedMessage(JsonObject envelope) {
        if (envelope.containsKey("reminder_id")) {
            return envelope;
        }
        for (String field : List.of("payload", "body")) {
            Object held = envelope.getValue(field);
            if (held instanceof String text) {
                held = new JsonObject(text);
            }
            if (held instanceof JsonObject message) {
                return message;
            }
        }
        return envelope;
    }

    private static void assertIsReminder(String what, JsonObject reminder) {
        assertThat(reminder.fieldNames()).as(what).containsExactlyInAnyOrderElementsOf(REPRESENTATION);
        assertThat(reminder.getValue("id")).as(what).isInstanceOfAny(Integer.class, Long.class);
        assertThat(instant(reminder.getValue("created_at"))).as(what).isNotNull();
        assertThat(instant(reminder.getValue("updated_at"))).as(what).isNotNull();
        // fire_at_local is fire_at on the wall clock of tz, with that zone's offset then
        OffsetDateTime local = OffsetDateTime.parse(reminder.getString("fire_at_local"));
        Instant fireAt = instant(reminder.getValue("fire_at"));
        assertThat(local.toInstant()).as(what).isEqualTo(fireAt);
        assertThat(local.getOffset()).as(what)
                .isEqualTo(ZoneId.of(reminder.getString("tz")).getRules().getOffset(fireAt));
    }

    /** The reminder's row as the database holds it. */
    private Kept stored(long id) {
        return Kept.of(new JsonObject(database.text("SELECT " + REMINDER_AS_JSON + " FROM reminders WHERE id = $1", id)));
    }

    /** fire_at as sent, or local_time read in the zone sent or else the given one; kept to the microsecond. */
    private static Instant fireAtOf(JsonObject sent, Object zone) {
        Object fireAt = sent.getValue("fire_at");
        Instant instant = fireAt != null ? OffsetDateTime.parse((String) fireAt).toInstant()
                : LocalDateTime.parse((String) sent.getValue("local_time"))
                        .atZone(ZoneId.of((String) orElse(sent.getValue("tz"), zone))).toInstant();
        return instant.truncatedTo(ChronoUnit.MICROS);
    }

    private static Instant expiresAt(Instant fireAt, Object expiresAfter) {
        return expiresAfter == null ? null
                : fireAt.plus(Duration.parse((String) expiresAfter)).truncatedTo(ChronoUnit.MICROS);
    }

    /** An instant as an answer writes it (…Z) or as Postgres's JSON does (…+00:00); null stays null. */
    private static Instant instant(Object text) {
        return text == null ? null : OffsetDateTime.parse((String) text).toInstant();
    }

    private static Object orElse(Object value, Object absent) {
        return value == null ? absent : value;
    }

    /** The members of a set sent as a JSON list, in the given order; all of them when none was sent. */
    private static JsonArray inOrder(List<String> order, Object sent) {
        return new JsonArray(sent == null ? order
                : order.stream().filter(((JsonArray) sent).getList()::contains).toList());
    }

    private static JsonObject sent(String what, Generated request) {
        return jsonObject(what + " (its body)", new String(request.body(), StandardCharsets.UTF_8));
    }

    private static JsonObject jsonObject(String what, String text) {
        try {
            return new JsonObject(text);
        } catch (RuntimeException notAnObject) {
            throw new AssertionError(what + ": not a JSON object", notAnObject);
        }
    }

    private static void assertIsProblem(Generated request, Answer response) {
        String body = response.body();
        if (body.isEmpty()) {
            return;
        }
        assertThat(response.contentType()).as("%s answered %s", request, body).startsWith("application/problem+json");
        JsonObject problem = new JsonObject(body);
        assertThat(problem.fieldNames()).as("%s", request).contains("type", "title", "status", "detail");
        assertThat(body).as("%s leaked an implementation detail", request)
                .doesNotContain("Exception").doesNotContain("java.").doesNotContain("\tat ")
                .doesNotContain("com.fasterxml").doesNotContain("io.vertx").doesNotContain("org.hibernate")
                .doesNotContain("dev.tickler");
    }

    private Arbitrary<Generated> requests() {
        return Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(6, registrations()),
                net.jqwik.api.Tuple.of(3, rawBodies("POST", "/v1/reminders")),
                net.jqwik.api.Tuple.of(2, contentTypes()),
                net.jqwik.api.Tuple.of(2, listQueries()),
                net.jqwik.api.Tuple.of(2, idPaths()),
                net.jqwik.api.Tuple.of(3, changesToTheFixture()),
                net.jqwik.api.Tuple.of(3, pushes()),
                net.jqwik.api.Tuple.of(2, quietHours()),
                net.jqwik.api.Tuple.of(1, rawBodies("PUT", QUIET_PATH)),
                net.jqwik.api.Tuple.of(1, rawBodies("POST", PUSH_PATH)),
                net.jqwik.api.Tuple.of(3, keyedRegistrations()),
                net.jqwik.api.Tuple.of(1, rawBodies("PUT", BY_KEY + Api.newKey())),
                net.jqwik.api.Tuple.of(2, cancels()),
                net.jqwik.api.Tuple.of(1, rawBodies("POST", CANCEL_PATH)));
    }

    /** A valid registration with one to three of its fields made wrong, removed, or joined by an unknown one. */
    private static Arbitrary<Generated> registrations() {
        return mutatedRegistrations().map(body -> new Generated("POST", "/v1/reminders", "application/json", json(body),
                false));
    }

    /**
     * The same bodies PUT by key, under a key of their own: a new valid key, or one made bad by what follows it (hostile
     * text, URL-encoded, or a key too long).
     */
    private static Arbitrary<Generated> keyedRegistrations() {
        // at most 300 characters of hostile text, so that the request line stays within what an HTTP server reads
        Arbitrary<String> keys = Arbitraries.oneOf(Arbitraries.just(""), hostileStrings().map(String::valueOf)
                .map(text -> text.substring(0, Math.min(text.length(), 300))), Arbitraries.just("k".repeat(200)));
        return Combinators.combine(mutatedRegistrations(), keys).as((body, tail) -> {
            String key = Api.newKey() + URLEncoder.encode(tail, StandardCharsets.UTF_8).replace("+", "%20");
            return new Generated("PUT", BY_KEY + key, "application/json", json(body), false);
        });
    }

    /** A valid registration with one to three of its fields made wrong, removed, or joined by an unknown one. */
    private static Arbitrary<Map<String, Object>> mutatedRegistrations() {
        Arbitrary<String> field = Arbitraries.of("user_id", "channel", "template", "fire_at", "local_time", "tz",
                "data", "expires_after", "key", "tags", "unknown_field");
        Arbitrary<Map.Entry<String, Object>> mutation = Combinators.combine(field, badValues())
                .as(AbstractMap.SimpleEntry::new);
        return mutation.list().ofMinSize(1).ofMaxSize(3).map(mutations -> {
            Map<String, Object> body = new LinkedHashMap<>(Api.reminderAt(Instant.now().plus(Duration.ofHours(2))));
            for (Map.Entry<String, Object> change : mutations) {
                if (change.getValue() == REMOVE) {
                    body.remove(change.getKey());
                } else {
                    body.put(change.getKey(), change.getValue());
                }
            }
            return body;
        });
    }

    /** A cancel by filter of a user of its own with one to three of its fields made wrong, removed, or unknown. */
    private static Arbitrary<Generated> cancels() {
        Arbitrary<String> field = Arbitraries.of("user_id", "template", "tag", "key_prefix", "state", "unknown_field");
        Arbitrary<Map.Entry<String, Object>> mutation = Combinators.combine(field, badValues())
                .as(AbstractMap.SimpleEntry::new);
        return mutation.list().ofMinSize(1).ofMaxSize(3).map(mutations -> {
            Map<String, Object> body = new LinkedHashMap<>(Map.of("user_id", Api.newUser(), "template", "trial_ending",
                    "tag", "plan", "key_prefix", "trial:"));
            for (Map.Entry<String, Object> change : mutations) {
                if (change.getValue() == REMOVE) {
                    body.remove(change.getKey());
                } else {
                    body.put(change.getKey(), change.getValue());
                }
            }
            return new Generated("POST", CANCEL_PATH, "application/json", json(body), false);
        });
    }

    private static final Object REMOVE = new Object();

    /** Valid quiet hours with one to three fields, at the top or in the window, made wrong, removed, or unknown. */
    private static Arbitrary<Generated> quietHours() {
        Arbitrary<String> field = Arbitraries.of("tz", "policy", "windows", "unknown_field", "window.days",
                "window.start", "window.end", "window.channels", "window.unknown_field");
        Arbitrary<Map.Entry<String, Object>> mutation = Combinators.combine(field, badValues())
                .as(AbstractMap.SimpleEntry::new);
        return mutation.list().ofMinSize(1).ofMaxSize(3).map(mutations -> {
            Map<String, Object> window = new LinkedHashMap<>(Map.of("days", List.of("mon", "fri"), "start", "22:00",
                    "end", "07:30", "channels", List.of("sms")));
            Map<String, Object> body = new LinkedHashMap<>(Map.of("tz", "Europe/Berlin", "policy", "defer"));
            body.put("windows", List.of(window));
            for (Map.Entry<String, Object> change : mutations) {
                boolean inWindow = change.getKey().startsWith("window.");
                Map<String, Object> target = inWindow ? window : body;
                String name = inWindow ? change.getKey().substring("window.".length()) : change.getKey();
                if (change.getValue() == REMOVE) {
                    target.remove(name);
                } else {
                    target.put(name, change.getValue());
                }
            }
            return new Generated("PUT", QUIET_PATH, "application/json", json(body), false);
        });
    }

    /** Values no field accepts in every position: wrong JSON types, hostile strings, extreme times and numbers. */
    private static Arbitrary<Object> badValues() {
        return Arbitraries.oneOf(
                Arbitraries.just(REMOVE),
                Arbitraries.of(null, true, false, 0, -1, Long.MAX_VALUE, Long.MIN_VALUE, 1.5e308, -0.0, 3.14),
                Arbitraries.just(new java.math.BigInteger("9".repeat(400))),
                Arbitraries.of(List.of(), List.of(1, 2), Map.of(), Map.of("a", Map.of("b", List.of()))),
                hostileStrings(),
                extremeTimes(),
                nestedData());
    }

    private static Arbitrary<Object> hostileStrings() {
        return Arbitraries.oneOf(
                Arbitraries.of("", " ", "\u0000", "u\u0000x", "\ud800", "x\udfff", "\ud83d\ude00", "\u202eRTL",
                        "e\u0301", "\uffff", "\ufeffBOM", "null", "true", "0", "1e400", "NaN", "Infinity", "email\u0000",
                        "Europe/Berlin\u0000", "+01:00", "GMT+1", "Mars/Olympus", "UTC", "push", "sms", "EMAIL",
                        "../../etc/passwd", "<script>alert(1)</script>", "' OR 1=1 --", "%00", "${jndi:ldap://x}"),
                Arbitraries.strings().all().ofMinLength(0).ofMaxLength(40),
                Arbitraries.strings().withChars('u', '\u0000', '\ud800', '\u00e9', '1').ofMinLength(120)
                        .ofMaxLength(140),
                Arbitraries.integers().between(129, 70_000).map("x"::repeat));
    }

    private static Arbitrary<Object> extremeTimes() {
        return Arbitraries.of("+999999999-12-31T23:59:59Z", "+1000000-01-01T00:00:00Z", "-999999999-01-01T00:00:00Z",
                "1700-01-01T00:00:00Z", "0000-01-01T00:00:00Z", "-0001-01-01T00:00:00Z", "1969-12-31T23:59:59Z",
                "9999-12-31T23:59:59Z", "9999-12-31T23:59:59+14:00", "+294277-01-01T00:00:00Z",
                "+10000-01-01T00:00:00Z", "2026-02-30T00:00:00Z", "2026-13-01T00:00:00Z", "2026-12-01T24:00:00Z",
                "2026-12-01T08:00:00+25:00", "2026-12-01T08:00:00.1234567891Z", "2026-12-01", "2026-12-01T09:00",
                "+999999999-12-31T23:59:59", "-999999999-01-01T00:00:00", "9999-12-31T23:59:59", "1970-01-01T00:00",
                "P999999999999D", "PT9999999999999999999H", "PT-1S", "PT0S", "P1Y", "P1M", "-P1D",
                "PT106751991167300H", "P106751991167D", "PT0.000000001S", "P1DT", "PT1H\u0000");
    }

    private static Arbitrary<Object> nestedData() {
        return Arbitraries.integers().between(1, 900).map(depth -> {
            Object nested = "leaf";
            for (int i = 0; i < depth; i++) {
                nested = i % 2 == 0 ? Map.of("k", nested) : List.of(nested);
            }
            return nested instanceof Map<?, ?> ? nested : Map.of("root", nested);
        });
    }

    /** Bytes that are not the JSON object the endpoint wants: truncated, garbage, deep, huge, not UTF-8. */
    private static Arbitrary<Generated> rawBodies(String method, String path) {
        String valid = new String(json(Api.reminderAt(Instant.now().plus(Duration.ofHours(2)))), StandardCharsets.UTF_8);
        Arbitrary<byte[]> bodies = Arbitraries.oneOf(
                Arbitraries.integers().between(0, valid.length() - 1).map(cut -> utf8(valid.substring(0, cut))),
                Arbitraries.of("", "null", "[]", "\"text\"", "42", "{", "}", "{\"user_id\":}", "{'a': 1}", "{a: 1}",
                        "{\"reminder_id\": 1e400, \"version\": 0}", "{\"reminder_id\": -1, \"version\": 0}",
                        "{\"reminder_id\": 1.5, \"version\": 0}", "{\"reminder_id\": \"1\", \"version\": 0}",
                        "{\"reminder_id\": 99999999999999999999999, \"version\": 0}",
                        "{\"reminder_id\": 1, \"version\": 99999999999}", "{\"payload\": \"{not json\"}",
                        "{\"body\": []}", "\ufeff{}", "{}{}", "{\"a\":1,}", "/* c */ {}").map(GeneratedBadInputTest::utf8),
                Arbitraries.integers().between(100, 20_000).map(depth -> utf8("[".repeat(depth) + "]".repeat(depth))),
                Arbitraries.integers().between(100, 20_000).map(depth -> utf8("{\"a\":".repeat(depth) + "1"
                        + "}".repeat(depth))),
                Arbitraries.integers().between(1, 3_000).map(digits -> utf8("{\"data\": {\"n\": 1" + "0".repeat(digits)
                        + "}}")),
                Arbitraries.bytes().array(byte[].class).ofMinSize(1).ofMaxSize(200),
                Arbitraries.just(new byte[] { '{', '"', 'u', (byte) 0xC3, (byte) 0x28, '"', ':', '1', '}' }));
        return bodies.map(body -> new Generated(method, path, "application/json", body, false));
    }

    /** A valid body under a content type the endpoint does not read, or none at all. */
    private static Arbitrary<Generated> contentTypes() {
        byte[] valid = json(Api.reminderAt(Instant.now().plus(Duration.ofHours(2))));
        return Arbitraries.of("text/plain", "application/xml", "application/x-www-form-urlencoded",
                        "multipart/form-data; boundary=xyz", "application/json; charset=utf-16",
                        "application/json; charset=nonsense", "application/octet-stream", "*/*", "application/*",
                        "invalid", "application/problem+json", null)
                .map(type -> new Generated("POST", "/v1/reminders", type, valid, false));
    }

    private static Arbitrary<Generated> listQueries() {
        Arbitrary<String> values = Arbitraries.oneOf(
                Arbitraries.of("", "%00", "u%00x", "%ED%A0%80", "%FF", "0", "-1", "501", "1e3",
                        "99999999999999999999", "sent", "SENT", "bogus", "AAAA", "MTcwMC0wMS0wMVQwMDowMDowMFp8MQ",
                        "Kzk5OTk5OTk5OS0xMi0zMVQyMzo1OTo1OVp8MQ", "MjAyNi0xMi0wMVQwODowMDowMFp8LTE", "%E2%80%AE"),
                Arbitraries.strings().alpha().numeric().ofMaxLength(30));
        return Combinators.combine(values, values, values, values, values).as((user, state, limit, after, tag) -> {
            List<String> parts = new ArrayList<>();
            parts.add("user_id=" + user);
            parts.add("state=" + state);
            parts.add("limit=" + limit);
            parts.add("after=" + after);
            parts.add("tag=" + tag);
            return new Generated("GET", "/v1/reminders?" + String.join("&", parts.subList(0, 1 + Math.abs(user.hashCode()) % 5)),
                    null, null, false);
        });
    }

    /** Ids that are not plain digits, and digits that name nothing; changing calls only on rows no one else owns. */
    private Arbitrary<Generated> idPaths() {
        Arbitrary<String> ids = Arbitraries.of("+1", "00001", "-1", "0", "%D9%A1", "%EF%BC%91", "1.0", "1e3", "0x10",
                "99999999999999999999", "9223372036854775807", "9223372036854775808", "%00", "abc", "%20", "1%2F2");
        return Combinators.combine(Arbitraries.of("GET", "PATCH", "DELETE", "POST"), ids).as((method, id) -> {
            String path = "/v1/reminders/" + id + (method.equals("POST") ? "/redrive" : "");
            byte[] body = method.equals("PATCH") ? utf8("{\"data\": {}}") : null;
            return new Generated(method, path, body == null ? null : "application/json", body, false);
        });
    }

    /** PATCH, DELETE and redrive on one real reminder, with bodies that are wrong in the same ways. */
    private Arbitrary<Generated> changesToTheFixture() {
        Arbitrary<String> field = Arbitraries.of("fire_at", "local_time", "tz", "data", "expires_after", "state",
                "version", "id");
        return Combinators.combine(field, badValues(), Arbitraries.integers().between(0, 9)).as((name, value, kind) -> {
            if (kind == 0) {
                return new Generated("POST", "/v1/reminders/" + fixtureId + "/redrive", null, null, true);
            }
            Map<String, Object> body = new HashMap<>();
            if (value != REMOVE) {
                body.put(name, value);
            }
            return new Generated("PATCH", "/v1/reminders/" + fixtureId, "application/json", json(body), true);
        });
    }

    private Arbitrary<Generated> pushes() {
        Arbitrary<Object> ids = Arbitraries.oneOf(badValues(), Arbitraries.longs().between(900_000_000L, 999_999_999L)
                .map(Object.class::cast));
        return Combinators.combine(ids, badValues(), Arbitraries.of("bare", "payload", "body", "payload-text"))
                .as((id, version, shape) -> {
                    Map<String, Object> message = new HashMap<>();
                    if (id != REMOVE) {
                        message.put("reminder_id", id);
                    }
                    if (version != REMOVE) {
                        message.put("version", version);
                    }
                    Object body = switch (shape) {
                        case "bare" -> message;
                        case "payload-text" -> Map.of("message_id", "m", "payload", new String(json(message), StandardCharsets.UTF_8));
                        default -> Map.of("message_id", "m", "delivery_count", 1, shape, message);
                    };
                    return new Generated("POST", PUSH_PATH, "application/json", json(body), false);
                });
    }

    /** Non-ASCII is written as \\u escapes, so lone surrogates reach the server as such instead of as '?'. */
    private static final ObjectMapper ESCAPING = new ObjectMapper().enable(JsonWriteFeature.ESCAPE_NON_ASCII.mappedFeature());

    private static byte[] json(Object body) {
        try {
            return ESCAPING.writeValueAsBytes(body);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
