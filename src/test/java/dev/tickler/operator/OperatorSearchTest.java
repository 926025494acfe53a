package dev.tickler.operator;

import static dev.tickler.testing.Api.api;
import static dev.tickler.testing.Api.newUser;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.nullValue;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.Stream;

import jakarta.inject.Inject;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import io.restassured.response.ValidatableResponse;

import dev.tickler.testing.Api;

/**
 * GET /v1/admin/reminders (docs/contract.md#operator-api): every filter on its own and together, pages, and refused
 * parameters.
 */
@QuarkusTest
class OperatorSearchTest {

    @Inject
    SeededReminders seeded;

    /** An hour of the far future no other test writes into, so a search bounded by it sees this test's rows only. */
    private Instant window;
    private String firstUser;
    private String secondUser;
    private String firstTemplate;
    private String secondTemplate;
    private String errorToken;
    private final List<Long> ids = new ArrayList<>();
    private final List<String> users = new ArrayList<>();

    @BeforeEach
    void seedOneOfEachKind() {
        window = Instant.parse("3000-01-01T00:00:00Z")
                .plus(Duration.ofHours(ThreadLocalRandom.current().nextLong(50_000_000)));
        firstUser = user();
        secondUser = user();
        firstTemplate = "search_" + UUID.randomUUID().toString().replace("-", "");
        secondTemplate = firstTemplate + ".b";
        errorToken = "Token_" + UUID.randomUUID().toString().substring(0, 8);
        ids.add(seeded.of(firstUser).template(firstTemplate).fireAt(at(1)).insert());
        ids.add(seeded.of(firstUser).channel("sms").template(secondTemplate).state("failed").fireAt(at(2))
                .lastError("HTTP 400: bad " + errorToken.toUpperCase() + " request").insert());
        ids.add(seeded.of(secondUser).channel("push").template(firstTemplate).state("sent").fireAt(at(3)).insert());
        ids.add(seeded.of(secondUser).template(secondTemplate).state("failed").fireAt(at(4))
                .lastError("timeout after PT15S").insert());
        ids.add(seeded.of(firstUser).channel("push").template(firstTemplate).state("cancelled").fireAt(at(5)).insert());
        // past the window's end
        ids.add(seeded.of(firstUser).template(firstTemplate).fireAt(window.plus(Duration.ofHours(2))).insert());
    }

    @AfterEach
    void removeSeededReminders() {
        seeded.deleteAllOf(users);
    }

    @Test
    void eachFilterSelectsOnlyItsReminders() {
        assertThat(search(inWindow("state", "failed"))).containsExactly(id(2), id(4));
        assertThat(search(inWindow("channel", "push"))).containsExactly(id(3), id(5));
        assertThat(search(Map.of("template", firstTemplate))).containsExactly(id(1), id(3), id(5), id(6));
        assertThat(search(Map.of("user_id", secondUser))).containsExactly(id(3), id(4));
        assertThat(search(Map.of("error_contains", errorToken.toLowerCase()))).containsExactly(id(2));
        assertThat(search(inWindow())).containsExactly(id(1), id(2), id(3), id(4), id(5));
    }

    @Test
    void stateTakesSeveralStatesCommaSeparatedOrRepeated() {
        assertThat(search(inWindow("state", "failed,sent"))).containsExactly(id(2), id(3), id(4));
        assertThat(api().queryParams(inWindow()).queryParam("state", "sent", "cancelled").get("/v1/admin/reminders")
                .then().statusCode(200).extract().jsonPath().getList("items.id", Long.class))
                .containsExactly(id(3), id(5));
        expectErrors(api().queryParams(inWindow("state", "failed,lost")).get("/v1/admin/reminders").then(),
                List.of(Map.of("field", "state", "message",
                        "must be one of pending, handed_off, delivering, sent, failed, cancelled, expired, skipped")));
    }

    @Test
    void fireFromIsInclusiveAndFireToExclusive() {
        assertThat(search(Map.of("template", firstTemplate, "fire_from", at(3).toString())))
                .containsExactly(id(3), id(5), id(6));
        assertThat(search(Map.of("template", firstTemplate, "fire_to", at(3).toString()))).containsExactly(id(1));
    }

    @Test
    void filtersTogetherMustAllHold() {
        Map<String, String> all = inWindow("user_id", firstUser);
        all.put("state", "failed");
        all.put("channel", "sms");
        all.put("template", secondTemplate);
        all.put("error_contains", errorToken);
        assertThat(search(all)).containsExactly(id(2));

        Map<String, String> none = inWindow("user_id", firstUser);
        none.put("state", "sent");
        assertThat(search(none)).isEmpty();
    }

    @Test
    void errorContainsMatchesLikeWildcardsAsPlainText() {
        String user = user();
        Instant fireAt = window.plus(Duration.ofMinutes(30));
        long percent = seeded.of(user).template("a").state("failed").fireAt(fireAt).lastError("quota 50% used").insert();
        seeded.of(user).template("b").state("failed").fireAt(fireAt).lastError("quota 500 used").insert();
        long underscore = seeded.of(user).template("c").state("failed").fireAt(fireAt).lastError("a_b").insert();
        seeded.of(user).template("d").state("failed").fireAt(fireAt).lastError("axb").insert();
        long backslash = seeded.of(user).template("e").state("failed").fireAt(fireAt).lastError("C:\\Temp").insert();
        seeded.of(user).template("f").state("failed").fireAt(fireAt).lastError("C:Temp").insert();

        assertThat(search(Map.of("user_id", user, "error_contains", "0%"))).containsExactly(percent);
        assertThat(search(Map.of("user_id", user, "error_contains", "_"))).containsExactly(underscore);
        assertThat(search(Map.of("user_id", user, "error_contains", "c:\\t"))).containsExactly(backslash);
    }

    @Test
    void keyKeyPrefixAndTagSelectTheirReminders() {
        String user = user();
        String own = UUID.randomUUID().toString().replaceAll("[^a-f]", "");
        Instant fireAt = window.plus(Duration.ofMinutes(40));
        long cartOne = seeded.of(user).template("a").fireAt(fireAt).set("key", own + "cart_1")
                .set("tags", new String[] { "vip", "cart" }).insert();
        long cartTwo = seeded.of(user).template("b").state("sent").fireAt(fireAt).set("key", own + "cart_2")
                .set("tags", new String[] { "cart" }).insert();
        long cartX = seeded.of(user).template("c").fireAt(fireAt).set("key", own + "cartX3").insert();

        assertThat(search(Map.of("key", own + "cart_1"))).containsExactly(cartOne);
        assertThat(search(Map.of("key_prefix", own + "cart_"))).containsExactly(cartOne, cartTwo);
        assertThat(search(Map.of("key_prefix", own + "cart"))).containsExactly(cartOne, cartTwo, cartX);
        assertThat(search(Map.of("user_id", user, "tag", "cart"))).containsExactly(cartOne, cartTwo);
        assertThat(search(Map.of("user_id", user, "tag", "vip", "key_prefix", own))).containsExactly(cartOne);
        api().body(Map.of("user_id", user, "tag", "cart", "dry_run", false)).post("/v1/admin/cancel").then()
                .statusCode(200).body("matched", equalTo(1)).body("changed", equalTo(1));
        assertThat(search(Map.of("user_id", user, "state", "cancelled"))).containsExactly(cartOne);
    }

    @Test
    void pagesWalkEveryMatchInFireAtThenIdOrderWithTheListCursor() {
        String template = "paged_" + UUID.randomUUID().toString().replace("-", "");
        List<Long> later = new ArrayList<>();
        // two users share each instant, so the id breaks the tie
        for (int minute = 0; minute < 4; minute++) {
            for (String user : List.of(user(), user())) {
                later.add(seeded.of(user).template(template).fireAt(window.plus(Duration.ofMinutes(10 + minute)))
                        .insert());
            }
        }
        List<Long> inOrder = new ArrayList<>();
        inOrder.add(seeded.of(user()).template(template).state("sent").fireAt(window).insert());
        inOrder.addAll(later);

        List<Long> seen = new ArrayList<>();
        String cursor = null;
        int pages = 0;
        do {
            var request = api().queryParam("template", template).queryParam("limit", 4);
            if (cursor != null) {
                request.queryParam("after", cursor);
            }
            JsonPath page = request.get("/v1/admin/reminders").then().statusCode(200).extract().jsonPath();
            seen.addAll(page.getList("items.id", Long.class));
            cursor = page.getString("next");
            pages++;
        } while (cursor != null);

        assertThat(seen).isEqualTo(inOrder);
        assertThat(pages).isEqualTo(3);
    }

    @Test
    void itemsAreTheReminderRepresentation() {
        Map<String, Object> item = api().queryParam("user_id", secondUser).queryParam("state", "failed")
                .get("/v1/admin/reminders").then().statusCode(200).extract().jsonPath().getMap("items[0]");

        Map<String, Object> single = Api.get(id(4)).statusCode(200).extract().jsonPath().getMap("$");
        assertThat(item).isEqualTo(single);
    }

    @Test
    void defaultLimitIsFiftyAndFiveHundredIsAllowed() {
        String user = user();
        seeded.many(user, "email", "pending", 51, window);

        api().queryParam("user_id", user).get("/v1/admin/reminders").then()
                .statusCode(200).body("items.size()", equalTo(50)).body("next", notNullValue());
        api().queryParam("user_id", user).queryParam("limit", 500).get("/v1/admin/reminders").then()
                .statusCode(200).body("items.size()", equalTo(51)).body("next", nullValue());
    }

    static Stream<Arguments> refusedParameters() {
        String range = "must be between 1970-01-01T00:00:00Z and 9999-12-30T23:59:59Z";
        String notAnInstant = "must be an ISO-8601 instant with an offset, e.g. 2026-12-01T08:00:00Z";
        String template = "must be 1 to 128 of A-Z, a-z, 0-9, '_', '.' and '-'";
        String text = "must not contain the NUL character or unpaired UTF-16 surrogates";
        return Stream.of(
                Arguments.of("state=lost", "state",
                        "must be one of pending, handed_off, delivering, sent, failed, cancelled, expired, skipped"),
                Arguments.of("channel=fax", "channel", "must be email, sms or push"),
                Arguments.of("template=trial%20ending", "template", template),
                Arguments.of("template=" + "t".repeat(129), "template", template),
                Arguments.of("template=t%00", "template", template),
                Arguments.of("user_id=" + "u".repeat(129), "user_id", "must be 1 to 128 characters"),
                Arguments.of("user_id=u%00x", "user_id", text),
                Arguments.of("error_contains=%00", "error_contains", text),
                Arguments.of("fire_from=yesterday", "fire_from", notAnInstant),
                Arguments.of("fire_from=2026-12-01T08:00:00", "fire_from", notAnInstant),
                Arguments.of("fire_from=1969-12-31T23:59:59Z", "fire_from", range),
                Arguments.of("fire_to=9999-12-31T00:00:00Z", "fire_to", range),
                Arguments.of("fire_from=2026-12-01T08:00:00Z&fire_to=2026-12-01T09:00:00%2B01:00", "fire_to",
                        "must be after fire_from"),
                Arguments.of("key=a%20b", "key", "must be 1 to 200 of A-Z, a-z, 0-9, '_', '.', ':' and '-'"),
                Arguments.of("key_prefix=" + "k".repeat(201), "key_prefix",
                        "must be 1 to 200 of A-Z, a-z, 0-9, '_', '.', ':' and '-'"),
                Arguments.of("tag=a/b", "tag", "must be 1 to 64 of A-Z, a-z, 0-9, '_', '.', ':' and '-'"),
                Arguments.of("limit=0", "limit", "must be a whole number from 1 to 500"),
                Arguments.of("limit=501", "limit", "must be a whole number from 1 to 500"),
                Arguments.of("limit=ten", "limit", "must be a whole number from 1 to 500"),
                Arguments.of("after=bm90LWEtY3Vyc29y", "after", "must be a cursor from a previous page's next"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("refusedParameters")
    void refusedParameterIsNamedWithItsRule(String query, String field, String message) {
        expectErrors(api().urlEncodingEnabled(false).get("/v1/admin/reminders?" + query).then(),
                List.of(Map.of("field", field, "message", message)));
    }

    @Test
    void emptyParameterCountsAsNotGiven() {
        // as a search form sends a field left blank
        assertThat(search(Map.of("user_id", secondUser, "state", "", "channel", "", "error_contains", "")))
                .containsExactly(id(3), id(4));
    }

    @Test
    void everyRefusedParameterIsNamedAtOnce() {
        expectErrors(api().get("/v1/admin/reminders?state=lost&channel=fax&limit=0").then(), List.of(
                Map.of("field", "state", "message",
                        "must be one of pending, handed_off, delivering, sent, failed, cancelled, expired, skipped"),
                Map.of("field", "channel", "message", "must be email, sms or push"),
                Map.of("field", "limit", "message", "must be a whole number from 1 to 500")));
    }

    private List<Long> search(Map<String, String> query) {
        return api().queryParams(query).queryParam("limit", 500).get("/v1/admin/reminders").then()
                .statusCode(200).extract().jsonPath().getList("items.id", Long.class);
    }

    private Map<String, String> inWindow(String... nameThenValue) {
        Map<String, String> query = new LinkedHashMap<>();
        query.put("fire_from", window.toString());
        query.put("fire_to", window.plus(Duration.ofHours(1)).toString());
        for (int i = 0; i < nameThenValue.length; i += 2) {
            query.put(nameThenValue[i], nameThenValue[i + 1]);
        }
        return query;
    }

    private String user() {
        String user = newUser();
        users.add(user);
        return user;
    }

    private Instant at(int minute) {
        return window.plus(Duration.ofMinutes(minute));
    }

    private long id(int number) {
        return ids.get(number - 1);
    }

    private static void expectErrors(ValidatableResponse response, List<Map<String, String>> errors) {
        response.statusCode(400)
                .contentType("application/problem+json")
                .body("type", equalTo("urn:tickler:problem:validation"))
                .body("errors", equalTo(errors));
    }
}
