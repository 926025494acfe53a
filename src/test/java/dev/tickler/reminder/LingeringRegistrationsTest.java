package dev.tickler.reminder;

import static dev.tickler.testing.Api.API_KEY;
import static dev.tickler.testing.Api.SECOND_API_KEY;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.restassured.http.ContentType;
import io.restassured.response.Response;

import dev.tickler.testing.Api;
import dev.tickler.testing.AtOnce;
import dev.tickler.testing.Database;
import dev.tickler.testing.InfraiEmulatorResource;
import dev.tickler.testing.Metrics;

/**
 * Registrations that arrive together share a statement (docs/api.md, "Batch registration and the registration
 * path"): each caller's in one insert over unnested arrays. Whatever they share, each registration is answered and
 * recorded as if it had come alone: one reminder per natural key, created once and found by its repeats, its registered
 * event naming the caller that created it, its fire_at kept to the microsecond.
 */
@QuarkusTest
class LingeringRegistrationsTest {

    private static final int BODIES = 12;
    private static final int COPIES = 3;

    @Inject
    Database database;

    /** One registration's answer, and the key and body it was sent with. */
    private record Answer(int status, long id, String apiKey, Map<String, Object> body) {
    }

    @Test
    void registrationsThatShareAStatementAreEachAnsweredAsIfAlone() throws Exception {
        assertThat(copiesSentTogether()).as("some registrations shared a statement").isTrue();
    }

    /**
     * Registrations due within the queue's ceiling, sent at once: those one statement inserted are marked handed off by
     * one statement too, once all their publishes are back (one of them told by the queue to wait a second), with no
     * linger of the marks' own (docs/scaling.md).
     */
    @Test
    void registrationsInsertedTogetherAreMarkedHandedOffTogether() throws Exception {
        Instant fireAt = Instant.now().plus(Duration.ofHours(1)).truncatedTo(ChronoUnit.SECONDS);
        InfraiEmulatorResource.emulator().rateLimitNextPublishes(1, 1);
        List<Long> ids = together(BODIES, caller -> given().header("Authorization", "Bearer " + API_KEY)
                .contentType(ContentType.JSON).body(Api.reminderAt(fireAt)).post("/v1/reminders").then()
                .statusCode(201).body("state", equalTo("handed_off"))
                .extract().jsonPath().getLong("id"));
        Object idArray = ids.toArray(Long[]::new);
        // the events' transactions are their statements': registered by the insert, published by the mark
        long insertedTogether = database.count("SELECT count(*) - count(DISTINCT xmin::text) FROM reminder_events"
                + " WHERE reminder_id = ANY($1) AND type = 'registered'", idArray);
        long insertsMarkedApart = database.count("SELECT count(*) FROM (SELECT 1 FROM reminder_events r"
                + " JOIN reminder_events p ON p.reminder_id = r.reminder_id AND p.type = 'published'"
                + " WHERE r.reminder_id = ANY($1) AND r.type = 'registered' GROUP BY r.xmin::text"
                + " HAVING count(DISTINCT p.xmin::text) > 1) apart", idArray);
        assertThat(insertedTogether).as("registrations inserted by a statement they shared").isPositive();
        assertThat(insertsMarkedApart).as("inserts whose rows more than one mark statement handed off").isZero();
    }

    /**
     * The calls, made at once while the reminders' writes are held, as behind a slow statement, until every one has
     * reached the application: whatever company the registration linger has learnt from the suite's earlier tests, the
     * registrations that wait behind the held statements leave together once they end.
     */
    private <T> List<T> together(int callers, AtOnce.Call<T> call) throws Exception {
        CompletableFuture<List<T>> answers;
        try (Database.Held held = database.holdWrites("reminders")) {
            answers = AtOnce.start(callers, call);
            await().atMost(Duration.ofSeconds(20)).until(() -> answers.isDone()
                    || Metrics.value("http_server_active_requests", "server_port=\"" + RestAssured.port + "\"")
                            >= callers);
        }
        return answers.get(30, TimeUnit.SECONDS);
    }

    /**
     * Twelve bodies, each sent three times together, twice with the first key and once with the second (two callers of
     * one tenant: their registrations go in statements of their own), half with fire_at finer than the microsecond.
     * Answers whether some of the reminders were inserted by one statement.
     */
    private boolean copiesSentTogether() throws Exception {
        // parked beyond the hand-off window: no mark rewrites the rows, so each keeps its insert's transaction
        Instant base = Instant.now().plus(Duration.ofDays(10)).truncatedTo(ChronoUnit.SECONDS);
        List<Map<String, Object>> bodies = new ArrayList<>();
        for (int i = 0; i < BODIES; i++) {
            Map<String, Object> body = Api.reminderAt(base);
            body.put("fire_at", base.plusNanos(i % 2 == 0 ? 0 : 123_456_789L + i).toString());
            body.put("data", Map.of("n", i));
            bodies.add(body);
        }
        List<Answer> answers = together(BODIES * COPIES, caller -> {
            Map<String, Object> body = bodies.get(caller / COPIES);
            String apiKey = caller % COPIES == 1 ? SECOND_API_KEY : API_KEY;
            Response response = given().header("Authorization", "Bearer " + apiKey).contentType(ContentType.JSON)
                    .body(body).post("/v1/reminders");
            return new Answer(response.statusCode(), response.jsonPath().getLong("id"), apiKey, body);
        });

        List<Long> ids = new ArrayList<>();
        for (Map<String, Object> body : bodies) {
            List<Answer> copies = answers.stream().filter(answer -> answer.body() == body).toList();
            assertThat(copies).extracting(Answer::status).containsExactlyInAnyOrder(201, 200, 200);
            assertThat(copies).extracting(Answer::id).containsOnly(copies.get(0).id());
            Answer created = copies.stream().filter(answer -> answer.status() == 201).findFirst().orElseThrow();
            long id = created.id();
            ids.add(id);

            Instant fireAt = Instant.parse((String) body.get("fire_at"));
            assertThat(Instant.parse(Api.get(id).statusCode(200).extract().jsonPath().getString("fire_at")))
                    .isEqualTo(fireAt.truncatedTo(ChronoUnit.MICROS));
            List<Map<String, Object>> events = Api.events(id);
            assertThat(events).hasSize(1);
            assertThat(events.get(0)).containsEntry("type", "registered")
                    .containsEntry("by", created.apiKey().equals(API_KEY) ? "key-1" : "key-2");
        }
        assertThat(ids).doesNotHaveDuplicates();
        long users = database.count("SELECT count(*) FROM reminders WHERE user_id = ANY($1)",
                (Object) bodies.stream().map(body -> (String) body.get("user_id")).toArray(String[]::new));
        assertThat(users).isEqualTo(BODIES);
        // one transaction per statement: rows that share one were inserted by one statement
        long transactions = database.count("SELECT count(DISTINCT xmin::text) FROM reminders WHERE id = ANY($1)",
                (Object) ids.toArray(Long[]::new));
        return transactions < BODIES;
    }
}
