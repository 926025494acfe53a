package dev.tickler.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

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
import io.vertx.core.json.JsonObject;

import dev.tickler.testing.Api;
import dev.tickler.testing.Database;
import dev.tickler.testing.InfraiEmulatorResource;

/**
 * Thousands of generated requests across /v1 (reminders and quiet hours) and the push path: broken and truncated JSON, deep nesting, huge
 * numbers, wrong types, Unicode edge cases, extreme dates and durations, wrong content types. Whatever comes in,
 * nothing answers 5xx, every 4xx with a body is a problem document that names no class and holds no stack trace,
 * and a refused request creates and changes no row. The seed is printed; -Dbad-input.seed=N replays a run.
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

    /** The parts of a row a refused request must leave alone, and the generated user's quiet hours. */
    record RowState(long count, long maxId, String fixture, String quietHours) {
    }

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
            }
        }
        System.out.println("generated bad input: " + REQUESTS + " requests, answers by class " + statuses);
        assertThat(statuses.getOrDefault("4xx", 0)).isGreaterThan(REQUESTS / 2);
    }

    /** One round trip: the suite reads this before and after each of its thousands of requests. */
    private RowState rowState() {
        String[] parts = database.text("SELECT concat_ws(E'\\n',"
                + " (SELECT count(*) FROM reminders), (SELECT coalesce(max(id), 0) FROM reminders),"
                + " coalesce((SELECT concat_ws('|', state, version, handoff, attempts, fire_at, tz, data, expires_at,"
                + " updated_at) FROM reminders WHERE id = $1), ''),"
                + " coalesce((SELECT concat_ws('|', tz, windows, policy, updated_at) FROM quiet_hours"
                + " WHERE user_id = $2), ''))", fixtureId, QUIET_USER).split("\n", 4);
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
                    response.body());
        } catch (IOException e) {
            throw new UncheckedIOException("no answer to " + request, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    record Answer(int status, String contentType, String body) {
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
                net.jqwik.api.Tuple.of(1, rawBodies("POST", PUSH_PATH)));
    }

    /** A valid registration with one to three of its fields made wrong, removed, or joined by an unknown one. */
    private static Arbitrary<Generated> registrations() {
        Arbitrary<String> field = Arbitraries.of("user_id", "channel", "template", "fire_at", "local_time", "tz",
                "data", "expires_after", "unknown_field");
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
            return new Generated("POST", "/v1/reminders", "application/json", json(body), false);
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
        return Combinators.combine(values, values, values, values).as((user, state, limit, after) -> {
            List<String> parts = new ArrayList<>();
            parts.add("user_id=" + user);
            parts.add("state=" + state);
            parts.add("limit=" + limit);
            parts.add("after=" + after);
            return new Generated("GET", "/v1/reminders?" + String.join("&", parts.subList(0, 1 + Math.abs(user.hashCode()) % 4)),
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
